import Foundation
import RedisTestServer
import Testing

/// Scripts and checks shared by the end-action tests on both stores: several
/// processes follow the stored countdown "x"; each has an `on_end_action` that
/// appends a line to one log; a driver ends "x" again and again.
enum EndActionScripts {
    /// Starts "x" `rounds` times, 1 s each: odd rounds end by themselves, even
    /// ones by `h:append(-100)` 0.4 s in; the next round starts `gap` s after an end.
    static func driver(rounds: Int, gap: Double = 0.8) -> String {
        Scratch.script("""
            local round = 0
            local function next_round()
              round = round + 1
              local h = countdown.start{ id = "x", seconds = 1, persist = true, on_done = function(t, why)
                print("end " .. round .. " " .. why)
                if round < \(rounds) then countdown.start{ seconds = \(gap), on_done = next_round } end
              end }
              if round % 2 == 0 then countdown.start{ seconds = 0.4, on_done = function() h:append(-100) end } end
            end
            next_round()
            """)
    }

    /// Follows "x" through every end (fetching it again each time it runs again).
    /// Its action logs `start END TOKEN TAG`; with `busy` it is pending for that
    /// many seconds (polled) and then logs `done END TOKEN TAG`.
    static func follower(lease: Double, busy: Double? = nil) -> String {
        let action: String
        if let busy {
            action = """
                local began = countdown.now()
                return function()
                  if countdown.now() - began < \(busy) then return false end
                  line("done", e)
                  return true
                end
                """
        } else {
            action = ""
        }
        return Scratch.script("""
            local path, tag = ...
            local function line(what, e)
              local f = assert(io.open(path, "a"))
              f:write(("%s %d %d %s\\n"):format(what, math.floor(e.ended_at * 1000 + 0.5), e.token, tag))
              f:close()
            end
            local function act(e)
              line("start", e)
              \(action)
            end
            \(followLoop(lease: lease))
            """)
    }

    /// The Lua that follows "x" through every end with `act` as its end action:
    /// fetched again a tenth of a second after each end, or while nothing is stored.
    static func followLoop(lease: Double) -> String {
        """
        local follow
        local function later() countdown.start{ seconds = 0.1, every = 0.1, on_done = function() follow() end } end
        follow = function()
          local h = countdown.fetch("x", { on_end_action = act, end_lease = \(lease),
            on_done = function(t, why) print("done " .. why); later() end })
          if not h then later() end
        end
        print("ready")
        follow()
        """
    }

    struct Entry: Equatable {
        var what: String
        var end: Int64
        var token: Int64
        var tag: String
    }

    static func entries(_ path: String) -> [Entry] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count == 4, let end = Int64(f[1]), let token = Int64(f[2]) else { return nil }
            return Entry(what: String(f[0]), end: end, token: token, tag: String(f[3]))
        }
    }

    /// Waits until `entries(path)` satisfies `done`; returns them (also on timeout).
    static func waitFor(_ path: String, timeout: Double = 15, _ done: ([Entry]) -> Bool) -> [Entry] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found = entries(path)
            if done(found) { return found }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return entries(path)
    }

    /// Runs whose ends are closer than 0.5 s belong to one end (each logs the deadline the store holds).
    static func groups(_ entries: [Entry]) -> [[Entry]] {
        var groups: [[Entry]] = []
        for entry in entries.sorted(by: { $0.end < $1.end }) {
            if let last = groups.last?.last, entry.end - last.end < 500 {
                groups[groups.count - 1].append(entry)
            } else {
                groups.append([entry])
            }
        }
        return groups
    }

    /// Five followers, `rounds` ends (natural and `append -100`): one action per end.
    static func fiveFollowers(store: [String], rounds: Int) throws {
        let log = Scratch.directory("end-actions") + "/actions.log"
        let followers = try (1...5).map { try LiveProcess(store + [follower(lease: 5), log, "f\($0)"]) }
        defer { for f in followers { f.signal(SIGKILL); f.wait() } }
        for f in followers { #expect(f.waitForLine { $0 == "ready" } != nil, "\(f.stderr)") }
        let driver = try LiveProcess(store + [driver(rounds: rounds)])
        defer { driver.signal(SIGKILL) }
        #expect(driver.wait(timeout: Double(rounds) * 4 + 20) == 0, "\(driver.stderr)")
        #expect(driver.texts.count == rounds, "\(driver.texts)")
        let found = waitFor(log, timeout: 5) { $0.count >= rounds }
        // Room for a late second action to show up, if there were one.
        Thread.sleep(forTimeInterval: 1)
        let entries = entries(log)
        let ends = groups(entries)
        #expect(ends.count == rounds, "one group per end: \(entries) (after \(found.count))")
        #expect(ends.allSatisfy { $0.count == 1 }, "exactly one action per end: \(entries)")
        // Every follower saw each end for its own view.
        for f in followers {
            #expect(f.texts.filter { $0 == "done finished" }.count == rounds, "\(f.texts) \(f.stderr)")
        }
        print("end actions: \(entries.count) for \(rounds) ends with 5 followers (\(store.first ?? ""))")
    }

    /// `cdscript timer 4 --id t --exec ...` in five terminals: the command runs once,
    /// with the claim's fencing token; every terminal shows the end and exits 0.
    static func timerExec(store: [String]) throws {
        let log = Scratch.directory("timer-exec") + "/exec.log"
        let command = ["--exec", "sh", "-c", "echo token {token} >> '\(log)'"]
        var timers = [try LiveProcess(["timer", "4", "--id", "t"] + store + command)]
        #expect(timers[0].waitForLine { $0.contains("3") } != nil, "\(timers[0].stderr)")
        for _ in 2...5 { timers.append(try LiveProcess(["timer", "4", "--id", "t"] + store + command)) }
        for t in timers {
            #expect(t.wait(timeout: 30) == 0, "\(t.stderr)")
            #expect(t.texts.contains { $0.contains("Time's up") }, "every terminal shows the end: \(t.texts)")
        }
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        // On Redis the first token is the server's time in microseconds (it must
        // outgrow any token handed out before a loss of data); in SQLite it is 1.
        #expect(lines.count == 1 && lines.first.map { $0.hasPrefix("token ") && Int64($0.dropFirst(6)).map { $0 > 0 } == true } == true,
                "the command ran once: \(lines)")
    }

    /// Three followers with a 1 s lease and a 3 s action: the first end's claimant
    /// renews and nobody else runs it; the second end's claimant is killed (-9) in
    /// the middle of its action and a survivor takes it over once the lease passes.
    static func killNineTakeover(store: [String]) throws -> Double {
        let log = Scratch.directory("end-takeover") + "/actions.log"
        var followers: [String: LiveProcess] = [:]
        for tag in ["f1", "f2", "f3"] {
            followers[tag] = try LiveProcess(store + [follower(lease: 1, busy: 3), log, tag])
        }
        defer { for f in followers.values { f.signal(SIGKILL); f.wait() } }
        for f in followers.values { #expect(f.waitForLine { $0 == "ready" } != nil, "\(f.stderr)") }
        let driver = try LiveProcess(store + [driver(rounds: 2, gap: 5)])
        defer { driver.signal(SIGKILL) }

        // End 1: one start, one done, nobody else while the claimant renews.
        let first = waitFor(log) { $0.contains { $0.what == "done" } }
        let firstStarts = first.filter { $0.what == "start" }
        #expect(firstStarts.count == 1, "\(first)")
        #expect(first.filter { $0.what == "done" }.count == 1, "\(first)")

        // End 2: kill -9 the claimant as soon as it starts.
        let second = waitFor(log) { $0.filter { $0.what == "start" }.count >= 2 }
        let claimant = try #require(second.filter { $0.what == "start" }.dropFirst().first, "\(second)")
        let killed = Date()
        try #require(followers[claimant.tag]).signal(SIGKILL)
        let taken = waitFor(log) { $0.filter { $0.what == "start" && $0.end == claimant.end }.count >= 2 }
        let takeover = Date().timeIntervalSince(killed)
        let starts = taken.filter { $0.what == "start" && $0.end == claimant.end }
        #expect(starts.count == 2, "the end was taken over: \(taken)")
        if starts.count == 2 {
            #expect(starts[1].tag != claimant.tag)
            #expect(starts[1].token > starts[0].token, "a larger fencing token: \(starts)")
        }
        // Taken over only once the 1 s lease passed (renewed every 1/3 s), and not long after.
        #expect(takeover > 0.3 && takeover < 4, "taken over \(takeover) s after the kill")
        let done = waitFor(log) { $0.filter { $0.what == "done" }.count >= 2 }
        #expect(done.filter { $0.what == "done" && $0.end == claimant.end }.map(\.tag) == [starts.last?.tag ?? "?"], "\(done)")
        #expect(driver.wait(timeout: 20) == 0, "\(driver.stderr)")
        print("lease takeover after kill -9 (\(store.first ?? "")): \(String(format: "%.3f", takeover)) s with a 1 s lease")
        return takeover
    }

    /// The claimant is stopped (SIGSTOP: cut off from the store, as by a
    /// partition or a paused VM) for longer than its lease: a survivor takes the
    /// end over; the claimant, continued, finds its claim gone and says so.
    static func claimantCutOff(store: [String]) throws {
        let log = Scratch.directory("end-cutoff") + "/actions.log"
        var followers: [String: LiveProcess] = [:]
        for tag in ["f1", "f2"] {
            followers[tag] = try LiveProcess(store + [follower(lease: 1, busy: 3), log, tag])
        }
        defer { for f in followers.values { f.signal(SIGKILL); f.wait() } }
        for f in followers.values { #expect(f.waitForLine { $0 == "ready" } != nil, "\(f.stderr)") }
        let driver = try LiveProcess(store + [driver(rounds: 1)])
        defer { driver.signal(SIGKILL) }
        let first = waitFor(log) { $0.contains { $0.what == "start" } }
        let claimant = try #require(first.first, "\(first)")
        let stopped = try #require(followers[claimant.tag])
        stopped.signal(SIGSTOP)
        let taken = waitFor(log) { $0.filter { $0.what == "start" }.count >= 2 }
        stopped.signal(SIGCONT)
        let starts = taken.filter { $0.what == "start" }
        #expect(starts.count == 2 && starts.last?.tag != claimant.tag, "\(taken)")
        let survivorTag = claimant.tag == "f1" ? "f2" : "f1"
        let survivor = try #require(followers[survivorTag])
        // The survivor's action takes 3 s; by then the continued claimant has tried
        // to renew its lease (every 1/3 s) and found the end taken over.
        let done = waitFor(log) { $0.contains { $0.what == "done" && $0.tag == survivorTag } }
        #expect(done.contains { $0.what == "done" && $0.tag == survivorTag }, "\(done)")
        for p in [stopped, survivor] {
            p.signal(SIGTERM)
            p.wait(timeout: 5)
        }
        #expect(stopped.stderr.contains("lease passed"), "\(stopped.stderr)")
        #expect(!survivor.stderr.contains("lease passed"), "\(survivor.stderr)")
    }
}

extension StoreFaults {
    @Suite("One end, one action: on_end_action across processes (SQLite)", .serialized)
    struct EndActionSQLiteTests {
        @Test("five processes following one countdown through 8 ends (natural and append -100) run its action exactly once per end")
        func fiveFollowers() throws {
            try EndActionScripts.fiveFollowers(store: ["--state-dir", Scratch.directory("end-sqlite")], rounds: 8)
        }

        @Test("a claimant killed with -9 in the middle of its action hands it to a survivor once its lease passes; a live claimant keeps it")
        func killNine() throws {
            _ = try EndActionScripts.killNineTakeover(store: ["--state-dir", Scratch.directory("end-sqlite-kill")])
        }

        @Test("cdscript timer --id --exec started in five terminals runs the command once")
        func timerExec() throws {
            try EndActionScripts.timerExec(store: ["--state-dir", Scratch.directory("end-sqlite-timer")])
        }

        @Test("a claimant stopped for longer than its lease is taken over, and says so when it runs again")
        func cutOff() throws {
            try EndActionScripts.claimantCutOff(store: ["--state-dir", Scratch.directory("end-sqlite-cut")])
        }
    }

    @Suite("One end, one action: on_end_action across processes (Redis)", .serialized)
    final class EndActionRedisTests {
        let server: RedisServer
        var store: [String] { ["--store", server.url] }

        init() throws { server = try RedisServer() }

        @Test("five processes following one countdown on Redis through 8 ends run its action exactly once per end")
        func fiveFollowers() throws {
            try EndActionScripts.fiveFollowers(store: store, rounds: 8)
        }

        @Test("on Redis, a claimant killed with -9 mid-action hands it to a survivor once the lease expires; tokens grow")
        func killNine() throws {
            _ = try EndActionScripts.killNineTakeover(store: store)
            // Two ends, the second taken over: three claims past the counter's start.
            #expect(Int64(try server.cli("GET", "cdscript:end-token:x")).map { $0 > 3 } == true)
        }

        @Test("on Redis, cdscript timer --id --exec started in five terminals runs the command once")
        func timerExec() throws {
            try EndActionScripts.timerExec(store: store)
        }

        @Test("on Redis, a claimant cut off (stopped) for longer than its lease is taken over, and says so when it runs again")
        func cutOff() throws {
            try EndActionScripts.claimantCutOff(store: store)
        }
    }
}
