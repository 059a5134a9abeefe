import Foundation
import GRDB
import RedisTestServer
import Testing

/// Issue 49: `cdscript serve` runs the end actions stored countdowns name, once
/// per end across every serve on one store, through the end claims.
enum ServeScenarios {
    /// An action definition that appends `ID TOKEN PPID` to `log` (PPID: the serve that ran it).
    static func appendAction(_ log: String) -> String {
        "append=echo \"$CDSCRIPT_ID $CDSCRIPT_TOKEN $PPID $CDSCRIPT_TITLE\" >> '\(log)'"
    }

    /// Starts `serve` with `arguments` and waits until it follows the store.
    static func serve(_ store: [String], _ arguments: [String]) throws -> LiveProcess {
        let serve = try LiveProcess(["serve", "--listen", "127.0.0.1:0"] + store + arguments)
        #expect(serve.waitForLine(timeout: 20) { $0.contains("serving end actions of") } != nil, "\(serve.texts) \(serve.stderr)")
        return serve
    }

    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    static func waitFor(_ path: String, timeout: Double, _ done: ([String]) -> Bool) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if done(lines(path)) { return lines(path) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return lines(path)
    }

    /// Three serves, 20 countdowns ending about 1 s apart: each action runs once.
    static func threeServes(store: [String]) throws {
        let log = Scratch.directory("serve-log") + "/actions.log"
        let serves = try (1...3).map { _ in try serve(store, ["--action", appendAction(log)]) }
        defer { for s in serves { s.signal(SIGKILL); s.wait() } }
        let count = 20
        for i in 0..<count {
            let started = try LiveProcess.run(["start", "c\(i)", "\(2 + i)", "--title", "T\(i)", "--action", "append"] + store)
            #expect(started.status == 0, "\(started.stderr)")
        }
        let found = waitFor(log, timeout: Double(count) + 20) { $0.count >= count }
        // Room for a late second run to show up, if there were one.
        Thread.sleep(forTimeInterval: 1.5)
        let all = lines(log)
        let ids = all.map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(ids.sorted() == (0..<count).map { "c\($0)" }.sorted(), "each end's action exactly once: \(all) (after \(found.count))")
        #expect(all.allSatisfy { line in line.hasSuffix(" T" + (line.split(separator: " ").first?.dropFirst() ?? "")) },
                "CDSCRIPT_TITLE in the command's environment: \(all)")
        let byServe = Dictionary(grouping: all) { $0.split(separator: " ")[2] }.mapValues(\.count)
        print("serve: \(all.count) actions for \(count) ends with 3 serves (\(store.first ?? "")): by serve \(byServe.values.sorted())")
        for s in serves {
            s.signal(SIGTERM)
            #expect(s.wait(timeout: 10) == 0, "SIGTERM stops serve cleanly: \(s.stderr)")
        }
    }

    /// The serve running a slow action is killed with -9: another takes the end over after the lease.
    static func killNine(store: [String]) throws {
        let log = Scratch.directory("serve-kill") + "/actions.log"
        let slow = "slow=echo \"start $CDSCRIPT_ID $CDSCRIPT_TOKEN $PPID $$\" >> '\(log)'; sleep 3; echo \"done $CDSCRIPT_ID $CDSCRIPT_TOKEN $PPID $$\" >> '\(log)'"
        let serves = try (1...2).map { _ in try serve(store, ["--lease", "2", "--action", slow]) }
        defer { for s in serves { s.signal(SIGKILL); s.wait() } }
        let started = try LiveProcess.run(["start", "k", "1", "--action", "slow"] + store)
        #expect(started.status == 0, "\(started.stderr)")
        let first = try #require(waitFor(log, timeout: 15) { $0.contains { $0.hasPrefix("start k") } }.first, "no serve started the action")
        let f = first.split(separator: " ")
        let claimant = try #require(serves.first { "\($0.pid)" == f[3] }, "the claimant is one of the serves: \(first)")
        let killedAt = Date()
        claimant.signal(SIGKILL)
        kill(pid_t(f[4])!, SIGKILL)  // its command, left behind
        let taken = waitFor(log, timeout: 20) { $0.filter { $0.hasPrefix("start k") }.count >= 2 }
        let waited = Date().timeIntervalSince(killedAt)
        #expect(waited >= 1.5, "not before the lease (2 s) passed: after \(waited) s")
        let all = waitFor(log, timeout: 20) { $0.contains { $0.hasPrefix("done k") } }
        let takeover = taken.filter { $0.hasPrefix("start k") }.dropFirst().first
        #expect(takeover != nil, "taken over: \(all)")
        #expect(takeover.map { $0.split(separator: " ")[3] != f[3] } == true, "by the other serve: \(all)")
        #expect(takeover.map { Int64($0.split(separator: " ")[2])! > Int64(f[2])! } == true, "with a larger token: \(all)")
        #expect(all.filter { $0.hasPrefix("done k") }.count == 1, "\(all)")
        Thread.sleep(forTimeInterval: 1)
        #expect(lines(log).filter { $0.hasPrefix("start k") }.count == 2, "\(lines(log))")
    }

    /// SIGTERM while a command runs: serve waits for it and marks the end done (no
    /// other serve runs it again); a second SIGTERM stops at once and leaves the end
    /// to the lease, and another serve takes it over.
    static func stopWhileRunning(store: [String]) throws {
        let log = Scratch.directory("serve-stop") + "/actions.log"
        let slow = "slow=echo \"start $CDSCRIPT_ID $PPID\" >> '\(log)'; sleep 1.5; echo \"done $CDSCRIPT_ID $PPID\" >> '\(log)'"
        let first = try serve(store, ["--lease", "2", "--action", slow])
        defer { first.signal(SIGKILL); first.wait() }
        #expect(try LiveProcess.run(["start", "a", "0.5", "--action", "slow"] + store).status == 0)
        _ = waitFor(log, timeout: 10) { $0.contains { $0.hasPrefix("start a") } }
        first.signal(SIGTERM)
        #expect(first.wait(timeout: 15) == 0, "\(first.stderr)")
        #expect(first.texts.contains { $0.contains("stopping: waiting for the commands of 1 end") }, "\(first.texts)")
        #expect(lines(log).filter { $0.hasPrefix("done a") }.count == 1, "the command finished before serve ended: \(lines(log))")
        // Marked done: a serve started afterwards does not run it again.
        let later = try serve(store, ["--lease", "2", "--action", slow])
        defer { later.signal(SIGKILL); later.wait() }
        Thread.sleep(forTimeInterval: 1)
        #expect(lines(log).filter { $0.hasPrefix("start a") }.count == 1, "\(lines(log))")

        // Twice: stopped at once, the end left unmarked; `later` takes it over after the lease.
        let second = try serve(store, ["--lease", "2", "--action", slow])
        defer { second.signal(SIGKILL); second.wait() }
        later.signal(SIGSTOP)  // out of the race for the claim
        #expect(try LiveProcess.run(["start", "b", "0.5", "--action", "slow"] + store).status == 0)
        let started = waitFor(log, timeout: 10) { $0.contains { $0.hasPrefix("start b") } }
        #expect(started.contains { $0 == "start b \(second.pid)" }, "\(started)")
        second.signal(SIGTERM)
        Thread.sleep(forTimeInterval: 0.2)
        second.signal(SIGTERM)
        #expect(second.wait(timeout: 10) == 0, "\(second.stderr)")
        #expect(second.texts.contains { $0.contains("stopping at once: 1 end left unmarked") }, "\(second.texts)")
        later.signal(SIGCONT)
        let all = waitFor(log, timeout: 15) { $0.contains { $0 == "done b \(later.pid)" } }
        #expect(all.contains("start b \(later.pid)"), "taken over after the lease: \(all)")
    }

    /// Ends that passed while no serve ran: one a moment ago runs when serve starts;
    /// one older than 10 minutes is logged and left. `notify` without notify-send
    /// on PATH is said once, however many ends name it.
    static func catchUpAndNotify(dir: String) throws {
        let store = ["--state-dir", dir]
        for id in ["recent", "old", "n1", "n2"] {
            #expect(try LiveProcess.run(["start", id, "0.3", "--action", "log", "--action", "notify"] + store).status == 0)
        }
        Thread.sleep(forTimeInterval: 0.6)
        // "old" ended 11 minutes ago, as far as the store says.
        let queue = try DatabaseQueue(path: dir + "/state.sqlite")
        try queue.write { db in
            try db.execute(sql: "UPDATE countdown SET wall_deadline = wall_deadline - 660000000000, boot_deadline = boot_deadline - 660000000000 WHERE id = 'old'")
        }
        try queue.close()
        let empty = Scratch.directory("no-path")
        let serve = try LiveProcess(["serve", "--listen", "127.0.0.1:0"] + store, environment: ["PATH": empty])
        defer { serve.signal(SIGKILL); serve.wait() }
        #expect(serve.waitForLine(timeout: 10) { $0.contains("recent ended at") } != nil, "\(serve.texts)")
        #expect(serve.waitForLine(timeout: 10) { $0.contains("old: its end at") && $0.contains("passed before serve started") } != nil, "\(serve.texts)")
        #expect(serve.waitForLine(timeout: 10) { $0.contains("n2 ended at") } != nil, "\(serve.texts)")
        #expect(!serve.texts.contains { $0.contains("old ended at") }, "\(serve.texts)")
        serve.signal(SIGTERM)
        #expect(serve.wait(timeout: 10) == 0)
        #expect(serve.stderr.components(separatedBy: "notify-send is not installed").count == 2, "said once: \(serve.stderr)")
    }

    /// A name serve does not know is reported, once per end; the known ones run.
    static func unknownName(store: [String]) throws {
        let serve = try serve(store, [])
        defer { serve.signal(SIGKILL); serve.wait() }
        let started = try LiveProcess.run(["start", "u", "1", "--action", "mystery", "--action", "log"] + store)
        #expect(started.status == 0, "\(started.stderr)")
        #expect(serve.waitForLine(timeout: 10) { $0.contains("u ended at") } != nil, "the built-in log action: \(serve.texts)")
        Thread.sleep(forTimeInterval: 0.5)
        // Its standard error is read to the end once it has stopped.
        serve.signal(SIGTERM)
        #expect(serve.wait(timeout: 10) == 0)
        let said = serve.stderr.components(separatedBy: "names the action 'mystery', which this serve does not know").count - 1
        #expect(said == 1, "\(serve.stderr)")
    }

    /// SIGHUP reads the action file again and says what changed.
    static func reload(store: [String]) throws {
        let dir = Scratch.directory("serve-reload")
        let log = dir + "/actions.log", conf = dir + "/actions.conf"
        try "# the first\na = echo before >> '\(log)'\n".write(toFile: conf, atomically: true, encoding: .utf8)
        let serve = try serve(store, ["--actions-file", conf])
        defer { serve.signal(SIGKILL); serve.wait() }
        try "a = echo after $CDSCRIPT_ID >> '\(log)'\n\nc = true\n".write(toFile: conf, atomically: true, encoding: .utf8)
        serve.signal(SIGHUP)
        let reloaded = serve.waitForLine(timeout: 10) { $0.contains("reloaded the actions") }
        #expect(reloaded?.text.contains("added c") == true && reloaded?.text.contains("changed a") == true, "\(serve.texts)")
        // A file that cannot be used keeps the actions before.
        try "a = echo after $CDSCRIPT_ID >> '\(log)'\nthis is no definition\n".write(toFile: conf, atomically: true, encoding: .utf8)
        serve.signal(SIGHUP)
        let started = try LiveProcess.run(["start", "r", "1", "--action", "a", "--action", "c"] + store)
        #expect(started.status == 0, "\(started.stderr)")
        #expect(waitFor(log, timeout: 10) { !$0.isEmpty } == ["after r"])
        serve.signal(SIGTERM)
        #expect(serve.wait(timeout: 10) == 0)
        #expect(serve.stderr.contains("the actions were not reloaded, the ones before stay: \(conf):2: expected NAME = COMMAND"), "\(serve.stderr)")
        #expect(!serve.stderr.contains("does not know"), "c is still defined: \(serve.stderr)")
    }
}

extension StoreFaults {
    @Suite("cdscript serve runs end actions once per end (SQLite)", .serialized)
    struct ServeSQLiteTests {
        @Test("three serves on one SQLite store, 20 countdowns ending about 1 s apart: every action ran exactly once")
        func threeServes() throws {
            try ServeScenarios.threeServes(store: ["--state-dir", Scratch.directory("serve-sqlite")])
        }

        @Test("the serve running an action is killed with -9: the other takes the end over after the lease, with a larger token")
        func killNine() throws {
            try ServeScenarios.killNine(store: ["--state-dir", Scratch.directory("serve-sqlite-kill")])
        }

        @Test("SIGTERM lets a running command finish and marks its end done; a second SIGTERM stops at once and another serve takes the end over")
        func stopWhileRunning() throws {
            try ServeScenarios.stopWhileRunning(store: ["--state-dir", Scratch.directory("serve-sqlite-stop")])
        }

        @Test("an end that passed while no serve ran is run when serve starts, one older than 10 minutes is left; notify without notify-send is said once")
        func catchUpAndNotify() throws {
            try ServeScenarios.catchUpAndNotify(dir: Scratch.directory("serve-sqlite-catch-up"))
        }

        @Test("an action name serve does not know is reported once; the others run")
        func unknownName() throws {
            try ServeScenarios.unknownName(store: ["--state-dir", Scratch.directory("serve-sqlite-unknown")])
        }

        @Test("SIGHUP reloads the action file and says what changed; a bad file keeps the actions before")
        func reload() throws {
            try ServeScenarios.reload(store: ["--state-dir", Scratch.directory("serve-sqlite-reload")])
        }
    }

    @Suite("cdscript serve runs end actions once per end (Redis)", .serialized)
    final class ServeRedisTests {
        let server: RedisServer
        var store: [String] { ["--store", server.url, "--state-dir", Scratch.directory("serve-redis-state")] }

        init() throws { server = try RedisServer() }

        @Test("three serves on one Redis, 20 countdowns ending about 1 s apart: every action ran exactly once")
        func threeServes() throws {
            try ServeScenarios.threeServes(store: store)
        }

        @Test("on Redis, the serve running an action is killed with -9: the other takes the end over after the lease")
        func killNine() throws {
            try ServeScenarios.killNine(store: store)
        }

        @Test("on Redis, an action name serve does not know is reported once")
        func unknownName() throws {
            try ServeScenarios.unknownName(store: store)
        }
    }
}
