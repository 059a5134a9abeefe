import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A script read from a pipe, a FIFO or standard input, as `lua5.4 -` and
/// `lua5.4 <(...)` read one (issue 50: each said "You don't have permission", exit 4).
@Suite("a script from standard input, a pipe or a FIFO runs as from a file")
struct ScriptFromPipeTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-pipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("cdscript - reads the script from standard input: its arguments as arg and ..., arg[0] is -, errors name stdin")
    func dash() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("in.lua")
        try "print(arg[0], ...)\ncountdown.start{ seconds = 0.1, on_done = function() print('done') end }\n"
            .write(to: source, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["-", "a", "b"], stdinPath: source.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "-\ta\tb\ndone\n", "\(result.stdout)")
        try "error('boom')\n".write(to: source, atomically: true, encoding: .utf8)
        let failing = try BinaryRunner.run(["run", "-"], stdinPath: source.path)
        #expect(failing.status == 2 && failing.stderr.contains("stdin:1: boom"), "\(failing.stderr)")
        let watching = try BinaryRunner.run(["run", "--watch", "-"], stdinPath: source.path)
        #expect(watching.status == 64 && watching.stderr.contains("standard input (-) is read once"), "\(watching.stderr)")
    }

    @Test("/dev/stdin and a FIFO are read as files are")
    func devStdinAndFifo() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("in.lua")
        try "print('from ' .. arg[0])\n".write(to: source, atomically: true, encoding: .utf8)
        let stdin = try BinaryRunner.run(["/dev/stdin"], stdinPath: source.path)
        #expect(stdin.status == 0 && stdin.stdout == "from /dev/stdin\n", "\(stdin.stdout)\(stdin.stderr)")
        let fifo = dir.appendingPathComponent("script.lua").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            _ = "print('from the fifo')\n".withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        writer.start()
        let result = try BinaryRunner.run([fifo])
        #expect(result.status == 0 && result.stdout == "from the fifo\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("a folder and a missing file are still refused with exit 4, named for what they are")
    func refusals() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try BinaryRunner.run([dir.path])
        #expect(folder.status == 4 && folder.stderr.contains("it is a directory"), "\(folder.stderr)")
        let missing = try BinaryRunner.run([dir.path + "/nope.lua"])
        #expect(missing.status == 4 && missing.stderr.contains("no such file"), "\(missing.stderr)")
    }
}
