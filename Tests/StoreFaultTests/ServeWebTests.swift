import Foundation
import RedisTestServer
import Testing

/// Issue 49: `cdscript serve` serves the store it follows over HTTP (CountdownWeb),
/// beside its end actions, in one process with two handles on the store.
@Suite("cdscript serve serves the stored countdowns over HTTP, with a token made on first start")
struct ServeWebTests {
    /// A served store: the serve process, its base URL and the token file.
    struct Served {
        let process: LiveProcess
        let base: String
        let token: String
    }

    static func serve(_ store: [String], stateDir: String) throws -> Served {
        let process = try LiveProcess(["serve", "--listen", "127.0.0.1:0", "--token-file", stateDir + "/token"] + store)
        let line = try #require(process.waitForLine(timeout: 20) { $0.hasPrefix("serving http://") }, "\(process.texts) \(process.stderr)")
        let base = String(line.text.dropFirst("serving ".count).prefix { $0 != " " }).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let token = try String(contentsOfFile: stateDir + "/token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(process.waitForLine(timeout: 10) { $0.contains("control token (made now, kept in \(stateDir)/token): \(token)") } != nil,
                "\(process.texts)")
        return Served(process: process, base: base, token: token)
    }

    /// One HTTP request with curl: the status code and the body.
    static func request(_ method: String, _ url: String, token: String? = nil, body: String? = nil) throws -> (status: Int, body: String) {
        var arguments = ["-s", "-X", method, "-w", "\n%{http_code}", url]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        if let body { arguments += ["-H", "Content-Type: application/json", "--data", body] }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let status = Int(text.split(separator: "\n").last ?? "") ?? 0
        return (status, String(text.dropLast(String(status).count)))
    }

    static func scenario(_ store: [String], stateDir: String) throws {
        let started = try LiveProcess.run(["start", "tea", "25m", "--title", "Green <tea>"] + store)
        #expect(started.status == 0, "\(started.stderr)")
        let served = try serve(store, stateDir: stateDir)
        defer { served.process.signal(SIGTERM); _ = served.process.wait() }
        let one = try request("GET", served.base + "/api/countdowns/tea")
        #expect(one.status == 200 && one.body.contains("\"title\" : \"Green <tea>\""), "\(one)")
        // A change made by a command, then one through the API: both kept in the store.
        #expect(try LiveProcess.run(["append", "tea", "1m"] + store).status == 0)
        #expect(try request("POST", served.base + "/api/countdowns/tea/pause").status == 401, "control needs the token")
        #expect(try request("POST", served.base + "/api/countdowns/tea/pause", token: served.token).status == 200)
        let status = try LiveProcess.run(["status", "tea", "--format", "{state} {left}"] + store)
        // 26 minutes less the seconds this took (many on a busy machine), paused.
        #expect(status.lines.count == 1 && (status.lines[0].hasPrefix("paused 25:") || status.lines[0] == "paused 26:00"), "the API's pause is in the store: \(status.lines)")
        // A second serve on the same address says so and exits 11.
        let port = served.base.split(separator: ":").last.map(String.init) ?? ""
        let second = try LiveProcess(["serve", "--listen", "127.0.0.1:\(port)", "--token-file", stateDir + "/token"] + store)
        #expect(second.wait() == 11)
        #expect(second.stderr.contains("127.0.0.1:\(port) is taken"), "\(second.stderr)")
    }

    @Test("on SQLite: the API reads a started countdown, a command's append and the API's pause (with the token; 401 without) both stay in the store, a second serve on the address exits 11, the token file is 0600")
    func sqlite() throws {
        let dir = Scratch.directory("serve-web")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.scenario(["--state-dir", dir], stateDir: dir)
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/token")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("a SIGTERM sent the moment serve says where it listens stops it cleanly (exit 0), on each of 10 starts: its signals are caught before it says so")
    func sigtermAtOnce() throws {
        let dir = Scratch.directory("serve-sigterm")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for attempt in 1...10 {
            // Not LiveProcess, whose lines are polled: the signal goes the instant the line is read.
            let serve = Process()
            serve.executableURL = URL(fileURLWithPath: LiveProcess.binary)
            serve.arguments = ["serve", "--listen", "127.0.0.1:0", "--state-dir", dir, "--token-file", dir + "/token"]
            let out = Pipe()
            serve.standardOutput = out
            serve.standardError = FileHandle.nullDevice
            try serve.run()
            defer { if serve.isRunning { kill(serve.processIdentifier, SIGKILL) }; serve.waitUntilExit() }
            let first = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
            kill(serve.processIdentifier, SIGTERM)
            let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            serve.waitUntilExit()
            #expect(first.hasPrefix("serving http://") && serve.terminationReason == .exit && serve.terminationStatus == 0,
                    "start \(attempt): \(serve.terminationReason == .exit ? "exit" : "signal") \(serve.terminationStatus) \(first + rest)")
        }
    }

    @Test("on Redis: the same")
    func redis() throws {
        let server = try RedisServer()
        let dir = Scratch.directory("serve-web-redis")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.scenario(["--store", server.url], stateDir: dir)
    }
}
