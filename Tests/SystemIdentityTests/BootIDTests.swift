import Foundation
import SystemIdentity
import Testing

@Suite("The boot id: the kernel's, read from /proc once per process")
struct BootIDTests {
    @Test("the boot id is the kernel's, read from a file; a missing file gives nil")
    func bootID() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-boot-id-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("0f1e2d3c-aaaa-bbbb-cccc-000011112222\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(BootID.read(path: path) == "0f1e2d3c-aaaa-bbbb-cccc-000011112222")
        #expect(BootID.read(path: path + "-missing") == nil)
        let blank = path + "-blank"
        defer { try? FileManager.default.removeItem(atPath: blank) }
        try Data(" \n".utf8).write(to: URL(fileURLWithPath: blank))
        #expect(BootID.read(path: blank) == nil)
        #if os(Linux)
        #expect(BootID.current?.count == 36)
        #endif
    }

    #if os(Linux)
    @Test("this process's boot id is what the kernel's file says")
    func currentIsTheKernels() {
        #expect(BootID.current == BootID.read(path: BootID.path))
    }
    #endif
}
