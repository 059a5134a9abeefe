import Foundation
import RedisTestServer
import Testing

/// Issue 49: `cdscript start` stores a countdown and returns at once; every
/// command sees it as any stored countdown.
enum StartScenarios {
    static func run(_ arguments: [String]) throws -> (status: Int32, lines: [String], stderr: String) {
        try LiveProcess.run(arguments)
    }

    static func json(_ store: [String]) throws -> [[String: Any]] {
        let list = try run(["list", "--json"] + store)
        #expect(list.status == 0, "\(list.stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(list.lines.joined(separator: "\n").utf8)) as? [[String: Any]])
    }

    static func storedAndSeen(store: [String]) throws {
        let began = Date()
        let started = try run(["start", "tea", "4m", "--title", "Green tea", "--action", "notify", "--action", "log"] + store)
        #expect(started.status == 0, "\(started.stderr)")
        #expect(Date().timeIntervalSince(began) < 10, "returns at once")
        #expect(started.lines.count == 1, "\(started.lines)")
        let line = started.lines.first ?? ""
        #expect(line.hasPrefix("tea: stored, running, 00:0") && line.contains(" left, ends 20") && line.hasSuffix(", \"Green tea\", actions notify log"), "\(line)")
        let status = try run(["status", "--format", "{title}|{id}|{state}"] + store)
        #expect(status.lines == ["Green tea|tea|running"], "\(status.lines) \(status.stderr)")
        let entry = try #require(try json(store).first)
        #expect(entry["title"] as? String == "Green tea")
        #expect(entry["actions"] as? [String] == ["notify", "log"])
        #expect(entry["state"] as? String == "running")
        let table = try run(["list"] + store)
        #expect(table.lines.first?.hasSuffix("DEADLINE" + String(repeating: " ", count: 18) + "TITLE") == true, "\(table.lines)")
        #expect(table.lines.dropFirst().first?.hasSuffix("Z  Green tea") == true, "\(table.lines)")
        // append and pause work on it, and keep its title and actions.
        #expect(try run(["append", "tea", "60"] + store).status == 0)
        let paused = try run(["pause", "tea"] + store)
        #expect(paused.status == 0 && paused.lines.first?.hasPrefix("tea: paused, 00:04:5") == true, "\(paused.lines) \(paused.stderr)")
        let after = try #require(try json(store).first)
        #expect(after["title"] as? String == "Green tea" && after["actions"] as? [String] == ["notify", "log"] && after["state"] as? String == "paused")
        // A countdown without a title: null, and no actions.
        #expect(try run(["start", "plain", "90"] + store).status == 0)
        let plain = try #require(try json(store).first { $0["id"] as? String == "plain" })
        #expect(plain["title"] is NSNull && (plain["actions"] as? [String])?.isEmpty == true, "\(plain)")
    }

    static func conflictAndReplace(store: [String]) throws {
        #expect(try run(["start", "x", "10m"] + store).status == 0)
        let again = try run(["start", "x", "5m", "--title", "other"] + store)
        #expect(again.status == 10, "\(again.stderr)")
        #expect(again.stderr.contains("a countdown 'x' is already stored, running") && again.stderr.contains("--replace"), "\(again.stderr)")
        #expect(try json(store).first?["title"] is NSNull, "left as it is")
        let replaced = try run(["start", "x", "5m", "--title", "other", "--replace"] + store)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try json(store).first?["title"] as? String == "other")
        #expect(try json(store).first?["total"] as? Double == 300)
        // A deadline in the future is an `at` countdown.
        let at = try run(["start", "y", "2099-01-01T00:00:00Z", "--every", "2"] + store)
        #expect(at.status == 0, "\(at.stderr)")
        let y = try #require(try json(store).first { $0["id"] as? String == "y" })
        #expect(y["kind"] as? String == "wall" && y["every"] as? Double == 2 && y["deadline"] as? String == "2099-01-01T00:00:00.000Z", "\(y)")
    }

    static func badInput(store: [String]) throws {
        let cases: [([String], String)] = [
            (["start", "a", "0"], "longer than 0"),
            (["start", "a", "soon"], "DURATION|DEADLINE"),
            (["start", "a", "2001-01-01T00:00:00Z"], "in the past"),
            (["start", "a", "10", "--every", "0.01"], "--every"),
            (["start", "a", "10", "--title", String(repeating: "t", count: 257)], "at most 256 characters"),
            (["start", "a", "10", "--title", "two\nlines"], "control characters"),
            (["start", "a", "10", "--action", "rm -rf /"], "an action name is 1 to 64 of"),
            (["start", "a", "10", "--action", "log", "--action", "log"], "named twice"),
            (["start", "a", "10", "--overtime", "--action", "log"], "--overtime"),
            (["start", "", "10"], "must not be empty"),
        ]
        for (arguments, message) in cases {
            let result = try run(arguments + store)
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try json(store).isEmpty, "nothing was stored")
    }

    static func hostile(store: [String]) throws {
        let id = "x\u{1B}[2J\ny"
        let title = "<script>alert(1)</script> \"><img src=x onerror=alert(1)> \u{202E}rtl"
        let started = try run(["start", id, "60", "--title", title] + store)
        #expect(started.status == 0, "\(started.stderr)")
        #expect(started.lines == [started.lines.first ?? ""] && started.lines.first?.hasPrefix("x\\e[2J\\ny: stored") == true, "\(started.lines)")
        #expect(started.lines.first?.contains("\\u{202e}rtl") == true, "the bidi override is escaped: \(started.lines)")
        let entry = try #require(try json(store).first)
        #expect(entry["id"] as? String == id && entry["title"] as? String == title)
        let status = try run(["status", "--format", "{title}"] + store)
        #expect(status.lines.first?.contains("\u{1B}") == false && status.lines.first?.contains("\\u{202e}") == true, "\(status.lines)")
    }
}

extension StoreFaults {
    @Suite("cdscript start stores a countdown and returns at once (SQLite)")
    struct StartSQLiteTests {
        var store: [String] { ["--state-dir", Scratch.directory("start-sqlite")] }

        @Test("start stores it: one line, then status, list --json and the table see it with its title and actions; append and pause work on it")
        func storedAndSeen() throws { try StartScenarios.storedAndSeen(store: store) }

        @Test("a countdown already stored under the id is refused with exit 10, left as it is; --replace replaces it; a date is an at countdown")
        func conflict() throws { try StartScenarios.conflictAndReplace(store: store) }

        @Test("bad durations, deadlines, titles and action names exit 64 with the reason and store nothing")
        func badInput() throws { try StartScenarios.badInput(store: store) }

        @Test("hostile ids and titles are stored as they are and shown escaped")
        func hostile() throws { try StartScenarios.hostile(store: store) }

        @Test("cdscript timer --id --title stores the title with the timer; a title that cannot be stored is refused before it starts")
        func timerTitle() throws {
            let store = self.store
            let timer = try StartScenarios.run(["timer", "0.3", "--id", "t", "--title", "Tea", "--plain"] + store)
            #expect(timer.status == 0, "\(timer.stderr)")
            let entry = try #require(try StartScenarios.json(store).first)
            #expect(entry["title"] as? String == "Tea" && entry["state"] as? String == "finished", "\(entry)")
            let bad = try StartScenarios.run(["timer", "10", "--id", "u", "--title", "a\nb", "--plain"] + store)
            #expect(bad.status == 64 && bad.stderr.contains("--title: a title is one line of text"), "\(bad.stderr)")
        }
    }

    @Suite("cdscript start stores a countdown and returns at once (Redis)", .serialized)
    final class StartRedisTests {
        let server: RedisServer
        var store: [String] { ["--store", server.url, "--state-dir", Scratch.directory("start-redis-state")] }

        init() throws { server = try RedisServer() }

        @Test("on Redis, start stores it and every command sees it with its title and actions")
        func storedAndSeen() throws { try StartScenarios.storedAndSeen(store: store) }

        @Test("on Redis, a countdown already stored under the id is refused with exit 10; --replace replaces it")
        func conflict() throws {
            _ = try server.cli("FLUSHALL")
            try StartScenarios.conflictAndReplace(store: store)
        }

        @Test("on Redis, hostile ids and titles are stored as they are and shown escaped")
        func hostile() throws {
            _ = try server.cli("FLUSHALL")
            try StartScenarios.hostile(store: store)
        }
    }
}
