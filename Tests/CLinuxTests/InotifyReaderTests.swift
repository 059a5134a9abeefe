import CLinux
import Foundation
import Testing

/// `cdl_inotify_next`, the one reader of inotify's records, on a real inotify descriptor.
@Suite("The inotify reader")
struct InotifyReaderTests {
    /// Every event queued on `fd`, read as the watchers read them.
    private func events(_ fd: Int32) -> [(watch: Int32, mask: UInt32, name: String?)] {
        let reader = cdl_inotify_reader_open(fd)
        defer { cdl_inotify_reader_close(reader) }
        var event = cdl_inotify_event()
        var read: [(watch: Int32, mask: UInt32, name: String?)] = []
        while cdl_inotify_next(reader, &event) != 0 {
            read.append((event.watch, event.mask, event.name.map { String(cString: $0) }))
        }
        return read
    }

    /// A fresh folder watched for `mask` on a non-blocking inotify descriptor,
    /// handed to `body`; all of it gone afterwards.
    private func withWatchedFolder(_ mask: Int32, _ body: (_ dir: String, _ fd: Int32, _ watch: Int32) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-inotify-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(fd >= 0)
        defer { close(fd) }
        let watch = inotify_add_watch(fd, dir, UInt32(mask))
        try #require(watch >= 0)
        try body(dir, fd, watch)
    }

    @Test("hands out every queued event in order, with its file's name, across more than one read's worth, then stops without blocking")
    func manyEventsInOrder() throws {
        try withWatchedFolder(IN_CREATE) { dir, fd, watch in
            // 300 records of 16 + 48 bytes: several 4,096-byte reads.
            let names = (0..<300).map { String(format: "file-%03d-", $0) + String(repeating: "x", count: 30) }
            for name in names {
                let file = open(dir + "/" + name, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
                try #require(file >= 0)
                close(file)
            }
            let created = events(fd)
            #expect(created.map(\.name) == names)
            #expect(created.allSatisfy { $0.watch == watch && $0.mask & UInt32(IN_CREATE) != 0 })
            #expect(events(fd).isEmpty, "nothing left, and no wait for more")
        }
    }

    @Test("an event about the watched folder itself has no name")
    func folderEventHasNoName() throws {
        try withWatchedFolder(IN_CREATE) { _, fd, watch in
            inotify_rm_watch(fd, watch)
            let read = events(fd)
            #expect(read.count == 1)
            #expect(read.first?.watch == watch)
            #expect(read.first.map { $0.mask & UInt32(IN_IGNORED) != 0 } == true)
            #expect(read.first.map { $0.name == nil } == true)
        }
    }

    @Test("a reader that could not be made reads nothing")
    func noReader() {
        var event = cdl_inotify_event()
        #expect(cdl_inotify_next(nil, &event) == 0)
    }
}
