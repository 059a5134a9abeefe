import Foundation
import Testing

/// `chmod +x sale.lua && ./sale.lua`: a `#!` first line and a UTF-8 byte order mark,
/// read as lua.c reads them.
@Suite("Scripts run as executables: #! line and byte order mark")
struct ExecutableScriptTests {
    /// A folder holding an executable script and a `cdscript` that is the binary under test.
    static func executable(_ source: String) throws -> (script: URL, path: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-exec-\(UUID().uuidString)")
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("cdscript"), withDestinationURL: BinaryRunner.binary)
        let script = dir.appendingPathComponent("sale.lua")
        try writeExecutable(source, to: script)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return (script, path)
    }

    /// Writes through a descriptor closed on exec: a process another test spawns
    /// meanwhile would otherwise keep the file open for writing, and running it
    /// would fail with "Text file busy" (ETXTBSY).
    static func writeExecutable(_ source: String, to file: URL) throws {
        let fd = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let bytes = Array(source.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    @Test("#!/usr/bin/env cdscript runs the script through PATH, with its arguments")
    func shebang() throws {
        let (script, path) = try Self.executable("#!/usr/bin/env cdscript\nprint('sale', ...)\n")
        let result = try BinaryRunner.run(["a", "b"], environment: ["PATH": path], executable: script)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "sale\ta\tb\n")
    }

    @Test("after a #! line, error line numbers are still the file's")
    func lineNumbers() throws {
        let (script, path) = try Self.executable("#!/usr/bin/env cdscript\n\nerror('boom')\n")
        let result = try BinaryRunner.run([], environment: ["PATH": path], executable: script)
        #expect(result.status == 2)
        #expect(result.stderr.contains("sale.lua:3: boom"), "\(result.stderr)")
        let (bad, _) = try Self.executable("#!/usr/bin/env cdscript\nlocal x = = 1\n")
        let syntax = try BinaryRunner.run([bad.path])
        #expect(syntax.status == 3)
        #expect(syntax.stderr.contains("sale.lua:2:"), "\(syntax.stderr)")
    }

    @Test("a UTF-8 byte order mark is accepted, alone or before a #! line", arguments: ["\u{FEFF}print('ok')\n", "\u{FEFF}#!/usr/bin/env cdscript\nprint('ok')\n"])
    func byteOrderMark(source: String) throws {
        let (script, _) = try Self.executable(source)
        let result = try BinaryRunner.run([script.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ok\n")
    }

    @Test("a # anywhere but the first line is still a syntax error")
    func onlyTheFirstLine() throws {
        let (script, _) = try Self.executable("print('ok')\n#!/usr/bin/env cdscript\n")
        let result = try BinaryRunner.run([script.path])
        #expect(result.status == 3)
    }
}
