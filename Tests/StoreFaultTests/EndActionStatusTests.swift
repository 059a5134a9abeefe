import Foundation
import RedisTestServer
import Testing

extension EndActionScripts {
    /// `cdscript timer 3 --id s --exec sh -c '...; exit 3'` in three terminals: the
    /// command runs once, and all three exit 3, the claimant because its command
    /// did, the others because the claimant recorded it with the claim (and they
    /// say so on stderr).
    static func timerExecStatus(store: [String]) throws {
        let log = Scratch.directory("timer-exec-status") + "/exec.log"
        let command = ["--exec", "sh", "-c", "echo ran >> '\(log)'; exit 3"]
        var timers = [try LiveProcess(["timer", "3", "--id", "s"] + store + command)]
        defer { for t in timers { t.signal(SIGKILL); t.wait() } }
        #expect(timers[0].waitForLine { $0.contains("2") } != nil, "\(timers[0].stderr)")
        for _ in 2...3 { timers.append(try LiveProcess(["timer", "3", "--id", "s"] + store + command)) }
        let statuses = timers.map { $0.wait(timeout: 30) }
        #expect(statuses == [3, 3, 3], "\(timers.map(\.stderr))")
        let ran = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(ran == ["ran"], "the command ran once")
        let elsewhere = "the end action of countdown \"s\" ran in another process and exited with status 3"
        #expect(timers.filter { $0.stderr.contains(elsewhere) }.count == 2, "\(timers.map(\.stderr))")
        for t in timers {
            #expect(t.texts.contains { $0.contains("Time's up") }, "every terminal shows the end: \(t.texts)")
        }
    }
}

extension StoreFaults {
    @Suite("Every process that shares an end exits with its action's status", .serialized)
    final class EndActionStatusTests {
        let server: RedisServer

        init() throws { server = try RedisServer() }

        @Test("SQLite: three terminals share a timer's end whose --exec exits 3; the command runs once and all three exit 3")
        func sqlite() throws {
            let dir = Scratch.directory("end-status-sqlite")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try EndActionScripts.timerExecStatus(store: ["--state-dir", dir])
        }

        @Test("Redis: three terminals share a timer's end whose --exec exits 3; the command runs once and all three exit 3")
        func redis() throws {
            let dir = Scratch.directory("end-status-redis")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try EndActionScripts.timerExecStatus(store: ["--store", server.url, "--state-dir", dir])
            #expect(try server.cli("HGET", "cdscript:end:s", "status") == "3", "the status is kept with the claim")
        }
    }
}
