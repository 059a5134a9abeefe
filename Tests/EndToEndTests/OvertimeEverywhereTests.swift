import Foundation
import Testing

/// An overtime countdown past its end is one state, `overtime`, with the time
/// past the end, in every reader: `list` (table and JSON), `status` (its line,
/// `{overtime}`, `--json`, `--for tmux`), the bars (waybar, i3bar, polybar) and
/// `process.stored()` under `cdscript test`.
@Suite("Overtime is shown as overtime everywhere", .serialized)
struct OvertimeEverywhereTests {
    /// A scratch folder, removed at the end.
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-overtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// One countdown of 0.1 s started with overtime; the run ends 0.3 s later,
    /// past its end, and leaves it stored.
    static let start = #"countdown.start{ id = "pomodoro", seconds = 0.1, persist = true, overtime = true }"#

    static func seed(_ state: String, in dir: URL) throws {
        try (start + "\ncountdown.start{ seconds = 0.3, on_done = function() os.exit(0) end }\n")
            .write(to: dir.appendingPathComponent("seed.lua"), atomically: true, encoding: .utf8)
        let run = try BinaryRunner.run(["--state-dir", state, "run", "seed.lua"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// Seconds since 1970 of an ISO 8601 instant with milliseconds (`2026-11-29T16:47:47.521Z`).
    static func instant(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// `+3`, `+1:02`, `+1:02:03` (as `{left}` writes the time past the end) in seconds.
    static func seconds(pastEnd text: Substring) -> Double? {
        guard text.hasPrefix("+") else { return nil }
        let parts = text.dropFirst().split(separator: ":").compactMap { Double($0) }
        return parts.isEmpty ? nil : parts.reduce(0) { $0 * 60 + $1 }
    }

    @Test("list, list --json, status, status --json, status --for tmux, the three bars and process.stored() all say overtime, with the same time past the end")
    func oneStateEverywhere() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state").path
        try Self.seed(state, in: dir)
        let readingsBegan = Date()
        // Seconds past the end, by reader; whole seconds where the reader shows whole seconds.
        var pastEnd: [String: Double] = [:]
        var wholeSeconds: Set<String> = []

        let table = try BinaryRunner.run(["list", "--state-dir", state], in: dir)
        let row = try #require(table.lines.first { $0.hasPrefix("pomodoro ") }, "\(table.stdout)")
        #expect(row.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first == "overtime", "\(row)")
        let clock = try #require(row.split(separator: " ").first { $0.hasPrefix("+") }, "\(row)")
        let hms = clock.dropFirst().split(separator: ":").compactMap { Double($0) }
        pastEnd["list"] = hms.reduce(0) { $0 * 60 + $1 }

        let listed = try #require(try Self.json(BinaryRunner.run(["list", "--json", "--state-dir", state], in: dir).stdout) as? [[String: Any]])
        #expect(listed.first?["state"] as? String == "overtime")
        #expect(listed.first?["remaining"] as? Double == 0)
        pastEnd["list --json"] = listed.first?["overtime"] as? Double

        let line = try BinaryRunner.run(["status", "--state-dir", state, "--format", "{state}|{overtime}|{left}|{progress}", "pomodoro"], in: dir)
        #expect(line.status == 0, "\(line.stderr)")
        let fields = (line.lines.first ?? "").split(separator: "|")
        #expect(fields.count == 4 && fields[0] == "overtime" && fields[3] == "100", "\(line.stdout)")
        if fields.count == 4 {
            #expect(Self.seconds(pastEnd: fields[2]) == Double(fields[1]), "{left} is the time past the end after a +: \(line.stdout)")
            pastEnd["status {overtime}"] = Double(fields[1])
            pastEnd["status {left}"] = Self.seconds(pastEnd: fields[2])
            wholeSeconds.formUnion(["status {overtime}", "status {left}"])
        }

        let statusJSON = try #require(try Self.json(BinaryRunner.run(["status", "--json", "--state-dir", state, "pomodoro"], in: dir).stdout) as? [[String: Any]])
        #expect(statusJSON.first?["state"] as? String == "overtime")
        pastEnd["status --json"] = statusJSON.first?["overtime"] as? Double

        let tmux = try BinaryRunner.run(["status", "--for", "tmux", "--state-dir", state], in: dir)
        let tmuxWords = (tmux.lines.first ?? "").split(separator: " ")
        #expect(tmuxWords.count == 3 && tmuxWords.first == "⏰" && tmuxWords.dropFirst().first == "pomodoro", "no ⏲ 0 in tmux: \(tmux.stdout)")
        pastEnd["tmux"] = tmuxWords.last.flatMap(Self.seconds(pastEnd:))
        wholeSeconds.insert("tmux")

        // Each bar's first update (the bar runs until the signal).
        func bar(_ name: String) throws -> [String] {
            let run = try BinaryRunner.run(["watch", "--bar", name, "--state-dir", state, "pomodoro"], signal: SIGTERM, signalAfter: 2, in: dir)
            #expect(run.status == 143, "\(name): \(run.stderr)")
            return run.lines
        }
        let waybar = try #require(try bar("waybar").first.map(Self.json) as? [String: Any])
        #expect(waybar["alt"] as? String == "overtime", "\(waybar)")
        #expect(waybar["class"] as? [String] == ["overtime"], "\(waybar)")
        #expect(waybar["percentage"] as? Int == 100, "\(waybar)")
        let waybarText = (waybar["text"] as? String ?? "").split(separator: " ")
        #expect(waybarText.first == "⏰", "\(waybar)")
        pastEnd["waybar"] = waybarText.last.flatMap(Self.seconds(pastEnd:))

        let i3bar = try bar("i3bar")
        let blocks = try #require(try i3bar.dropFirst(2).first.map(Self.json) as? [[String: Any]], "\(i3bar)")
        #expect(blocks.first?["color"] as? String == "#FFB86C", "\(blocks)")
        #expect(blocks.first?["urgent"] == nil, "overtime is not finished: \(blocks)")
        pastEnd["i3bar"] = (blocks.first?["full_text"] as? String)?.split(separator: " ").last.flatMap(Self.seconds(pastEnd:))

        let polybar = try bar("polybar")
        pastEnd["polybar"] = polybar.first?.split(separator: " ").last.flatMap(Self.seconds(pastEnd:))
        wholeSeconds.formUnion(["waybar", "i3bar", "polybar"])

        // Every reader read within this window, so their times past the end differ by
        // at most its length (and a second for those that show whole seconds).
        let window = Date().timeIntervalSince(readingsBegan)
        let readers = ["list", "list --json", "status {overtime}", "status {left}", "status --json", "tmux", "waybar", "i3bar", "polybar"]
        for reader in readers { #expect(pastEnd[reader] != nil, "\(reader) gave no time past the end: \(pastEnd)") }
        let exact = readers.filter { !wholeSeconds.contains($0) }.compactMap { pastEnd[$0] }
        #expect(exact.allSatisfy { $0 >= 0.15 && $0 <= window + 1 }, "\(pastEnd), window \(window) s")
        let values = readers.compactMap { pastEnd[$0] }
        if let low = values.min(), let high = values.max() {
            #expect(high - low <= window + 1, "times past the end: \(pastEnd), read within \(window) s")
        }

        // process.stored() under cdscript test: the same start, 2.5 s on the test's clock.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("spec"), withIntermediateDirectories: true)
        try """
            it("reads the overtime countdown", function()
              \(Self.start)
              clock.advance(2.5)
              local e = process.stored()[1]
              local out = assert(io.open("stored.txt", "w"))
              out:write(e.state, " ", string.format("%.3f", e.overtime), " ", string.format("%.3f", e.remaining))
              out:close()
            end)
            """.write(to: dir.appendingPathComponent("spec/overtime_spec.lua"), atomically: true, encoding: .utf8)
        let spec = try BinaryRunner.run(["test", "spec"], in: dir)
        #expect(spec.status == 0, "\(spec.stdout)\(spec.stderr)")
        let stored = try String(contentsOf: dir.appendingPathComponent("stored.txt"), encoding: .utf8)
        #expect(stored == "overtime 2.400 0.000", "process.stored(): \(stored)")
    }

    @Test("status --json ID is the matching element of list --json; without ids, the countdowns status shows, in its order")
    func statusJSONIsTheListingShape() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state").path
        try """
            countdown.start{ id = "tea", seconds = 300, persist = true }
            countdown.start{ id = "held", seconds = 90, persist = true }:pause()
            countdown.start{ id = "done", seconds = 0.1, persist = true }
            \(Self.start)
            countdown.start{ seconds = 0.3, on_done = function() os.exit(0) end }
            """.write(to: dir.appendingPathComponent("seed.lua"), atomically: true, encoding: .utf8)
        let run = try BinaryRunner.run(["--state-dir", state, "run", "seed.lua"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let listed = try #require(try Self.json(BinaryRunner.run(["list", "--json", "--state-dir", state], in: dir).stdout) as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: listed.map { ($0["id"] as? String ?? "", $0) })
        for id in ["held", "done", "tea", "pomodoro"] {
            let shown = try BinaryRunner.run(["status", "--json", "--state-dir", state, id], in: dir)
            #expect(shown.status == 0, "\(shown.stderr)")
            let objects = try #require(try Self.json(shown.stdout) as? [[String: Any]], "\(shown.stdout)")
            var element = try #require(objects.first, "\(id): \(shown.stdout)")
            var expected = try #require(byID[id])
            #expect(objects.count == 1)
            #expect(Set(element.keys) == Set(expected.keys), "\(id): the same fields")
            if id == "tea" || id == "pomodoro" {
                // Time moved on between the two reads: the times, within a generous bound.
                for key in ["remaining", "overtime"] {
                    let a = element.removeValue(forKey: key) as? Double, b = expected.removeValue(forKey: key) as? Double
                    #expect(abs((a ?? 0) - (b ?? 0)) < 5, "\(id) \(key): \(String(describing: a)) \(String(describing: b))")
                }
            }
            // A stored deadline is on the boot clock; each process turns it into UTC with
            // its own reading of both clocks, so the two may round to milliseconds a step apart.
            if let shownText = element["deadline"] as? String, let listedText = expected["deadline"] as? String {
                let a = Self.instant(shownText), b = Self.instant(listedText)
                #expect(a != nil && b != nil && abs(a! - b!) <= 0.002, "\(id) deadline: \(shownText) \(listedText)")
                element["deadline"] = nil
                expected["deadline"] = nil
            }
            #expect(NSDictionary(dictionary: element).isEqual(to: expected), "\(id): \(element) against \(expected)")
        }
        let all = try #require(try Self.json(BinaryRunner.run(["status", "--json", "--state-dir", state], in: dir).stdout) as? [[String: Any]])
        #expect(all.map { $0["id"] as? String } == ["pomodoro", "tea", "held"], "overtime, running, paused; finished ones left out")
        let both = try BinaryRunner.run(["status", "--json", "--format", "{id}", "--state-dir", state], in: dir)
        #expect(both.status == 64, "--json writes no line for --format to shape: \(both.stderr)")
        let missing = try BinaryRunner.run(["status", "--json", "--state-dir", state, "held", "nope"], in: dir)
        #expect(missing.status == 7)
        #expect((try? Self.json(missing.stdout) as? [[String: Any]])?.count == 1, "the others are still written: \(missing.stdout)")
    }
}
