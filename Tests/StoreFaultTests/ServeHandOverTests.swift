import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The web server lives in cdscript-serve, beside cdscript (issue 49: linked
/// into cdscript it cost every command 3 ms of CPU at start). `serve` hands its
/// process over to it; `run --serve` starts it as a child for the page, which
/// ends with the run however the run ends.
@Suite("serve and run --serve: the web server is cdscript-serve's, beside cdscript")
struct ServeHandOverTests {
    static var serveProgram: String {
        URL(fileURLWithPath: LiveProcess.binary).deletingLastPathComponent().appendingPathComponent("cdscript-serve").path
    }

    /// The port in a line such as "serving http://127.0.0.1:PORT/ ...".
    static func port(in line: String) -> Int? {
        guard let start = line.range(of: "127.0.0.1:")?.upperBound else { return nil }
        return Int(line[start...].prefix(while: \.isNumber))
    }

    /// Whether something accepts a connection on the loopback `port` now.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Polls until `port` refuses connections; false if it still accepts after `timeout` seconds.
    static func refusedSoon(_ port: Int, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if !accepts(port) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// The program a process runs now.
    static func executable(of pid: Int32) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
    }

    /// The children of `pid`, from /proc.
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { candidate in
            guard let stat = try? String(contentsOfFile: "/proc/\(candidate)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
    }

    /// The symbols of a binary, as nm lists them (defined and not).
    static func symbols(_ path: String) throws -> String {
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/nm")
        nm.arguments = [path]
        let out = Pipe()
        nm.standardOutput = out
        nm.standardError = FileHandle.nullDevice
        try nm.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nm.waitUntilExit()
        return text
    }

    @Test("cdscript links no web server (no SwiftNIO, no CountdownWeb symbol); cdscript-serve does",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/nm"), "needs nm (binutils)"))
    func noServerInCdscript() throws {
        let cdscript = try Self.symbols(LiveProcess.binary)
        #expect(cdscript.contains("LuaHost"), "nm listed cdscript's symbols")
        for module in ["8NIOPosix", "7NIOCore", "6NIOSSL", "12CountdownWeb"] {
            #expect(!cdscript.contains(module), "cdscript links \(module)")
        }
        let server = try Self.symbols(Self.serveProgram)
        for module in ["8NIOPosix", "12CountdownWeb"] {
            #expect(server.contains(module), "cdscript-serve links \(module)")
        }
    }

    @Test("cdscript serve becomes cdscript-serve in the same process: the pid started serves the port, and SIGTERM to it stops serve with status 0")
    func handedOver() throws {
        let dir = Scratch.directory("serve-handover")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let serve = try LiveProcess(["serve", "--state-dir", dir, "--listen", "127.0.0.1:0"])
        defer { if serve.process.isRunning { serve.signal(SIGKILL) }; serve.wait() }
        let line = try #require(serve.waitForLine(timeout: 30) { $0.hasPrefix("serving http://127.0.0.1:") }, "\(serve.texts)")
        let port = try #require(Self.port(in: line.text))
        #expect(Self.executable(of: serve.pid).hasSuffix("/cdscript-serve"), "the process started runs cdscript-serve now")
        #expect(Self.accepts(port))
        #expect(Self.children(of: serve.pid).isEmpty, "no child serves in its place")
        serve.signal(SIGTERM)
        #expect(serve.wait(timeout: 15) == 0, "\(serve.stderr)")
        #expect(!Self.accepts(port))
    }

    @Test("without cdscript-serve beside cdscript, serve and run --serve name the path they looked at and exit 14; serve --help is still serve's")
    func missingServer() throws {
        let dir = Scratch.directory("serve-missing")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lonely = dir + "/bin/cdscript"
        try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: true)
        // A hard link where it can be (the same file system), else a copy: either way a cdscript alone in its folder.
        if link(LiveProcess.binary, lonely) != 0 { try FileManager.default.copyItem(atPath: LiveProcess.binary, toPath: lonely) }
        let serve = try LiveProcess(["serve", "--state-dir", dir + "/state", "--listen", "127.0.0.1:0"], executable: lonely)
        #expect(serve.wait(timeout: 20) == 14)
        #expect(serve.stderr.contains("\(dir)/bin/cdscript-serve is missing"), "\(serve.stderr)")
        let script = Scratch.script("view.label{ id = 'status', text = 'waiting' }\ncountdown.start{ seconds = 30 }\n")
        let run = try LiveProcess(["run", "--state-dir", dir + "/state", "--serve", "127.0.0.1:0", script], executable: lonely)
        #expect(run.wait(timeout: 20) == 14)
        #expect(run.stderr.contains("\(dir)/bin/cdscript-serve is missing"), "\(run.stderr)")
        let help = try LiveProcess(["serve", "--help"], executable: lonely)
        #expect(help.wait(timeout: 20) == 0)
        #expect(help.texts.contains { $0.contains("--listen") } && help.texts.contains { $0.contains("--tls-cert") }, "\(help.texts)")
    }

    @Test("run --serve's page server ends when the run is killed with SIGKILL: its port refuses connections soon after")
    func childEndsWithTheRun() throws {
        let dir = Scratch.directory("serve-orphan")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = Scratch.script("view.label{ id = 'status', text = 'waiting' }\ncountdown.start{ seconds = 60 }\n")
        let run = try LiveProcess(["run", "--state-dir", dir, "--serve", "127.0.0.1:0", script])
        defer { if run.process.isRunning { run.signal(SIGKILL) }; run.wait() }
        let line = try #require(run.waitForLine(timeout: 30) { $0.hasPrefix("serving the view at http://127.0.0.1:") }, "\(run.texts)")
        let port = try #require(Self.port(in: line.text))
        #expect(Self.accepts(port))
        let children = Self.children(of: run.pid)
        #expect(children.count == 1 && children.allSatisfy { Self.executable(of: $0).hasSuffix("/cdscript-serve") }, "\(children)")
        run.signal(SIGKILL)
        #expect(Self.refusedSoon(port, timeout: 15), "the page's server still listens after the run was killed")
        let deadline = Date().addingTimeInterval(15)
        while children.contains(where: { Self.executable(of: $0).hasSuffix("/cdscript-serve") }) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        for child in children where Self.executable(of: child).hasSuffix("/cdscript-serve") {
            Issue.record("cdscript-serve \(child) still runs after its run was killed")
            kill(child, SIGKILL)  // it holds the run's stderr: the wait below would not end
        }
        run.wait(timeout: 15)
        #expect(run.process.terminationReason == .uncaughtSignal && run.process.terminationStatus == SIGKILL)
    }

    @Test("run --serve says so when its page server dies, and the script runs on until stopped")
    func childDeathIsSaid() throws {
        let dir = Scratch.directory("serve-child-death")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = Scratch.script("view.label{ id = 'status', text = 'waiting' }\ncountdown.start{ seconds = 60 }\n")
        let run = try LiveProcess(["run", "--state-dir", dir, "--serve", "127.0.0.1:0", script])
        defer { if run.process.isRunning { run.signal(SIGKILL) }; run.wait() }
        _ = try #require(run.waitForLine(timeout: 30) { $0.hasPrefix("serving the view at http://127.0.0.1:") }, "\(run.texts)")
        let child = try #require(Self.children(of: run.pid).first)
        kill(child, SIGKILL)
        // The run notices on its next pass (the key pipe's end); it still runs a moment later.
        Thread.sleep(forTimeInterval: 1)
        #expect(run.process.isRunning, "the script runs on without its page")
        run.signal(SIGTERM)
        #expect(run.wait(timeout: 15) == 143)
        #expect(run.stderr.contains("the page's server (cdscript-serve, pid \(child)) was killed by signal 9"), "\(run.stderr)")
    }
}
