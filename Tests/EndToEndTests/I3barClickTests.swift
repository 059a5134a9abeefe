import Foundation
import RedisTestServer
import Testing

/// i3bar's click events, as the bar writes them on the status command's
/// standard input: a left click on a countdown's block pauses it when it runs
/// and resumes it when it is paused, in the store.
@Suite("watch --bar i3bar pauses and resumes on a click")
struct I3barClickTests {
    /// An id no bar may read as anything but text, and that JSON must carry both ways.
    static let hostileID = "R&D \"sync\" }{ \u{202E}x\\y 名前 #[fg=red]"

    @Test("a left click toggles the countdown its block names (hostile ids too); other buttons and blocks change nothing; a malformed event is one message; the bar runs on after its input ends")
    func clicksToggle() throws {
        try Self.clicksToggle(store: [])
    }

    @Test("on Redis: the same clicks, the same changes")
    func clicksToggleOnRedis() throws {
        let server = try RedisServer()
        defer { server.stop() }
        try Self.clicksToggle(store: ["--store", server.url])
    }

    /// `store`: options that name the store (none: SQLite in the scratch folder's state folder).
    static func clicksToggle(store: [String]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-clicks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state").path
        let storeOptions = ["--state-dir", state] + store
        // The hostile id goes to Lua as bytes, in decimal escapes, so no quoting can change it.
        let bytes = Self.hostileID.utf8.map { "\\\($0)" }.joined()
        try """
            countdown.start{ id = "tea", seconds = 300, persist = true }
            countdown.start{ id = "\(bytes)", seconds = 90, persist = true }:pause()
            countdown.start{ id = "held", seconds = 60, persist = true }:pause()
            os.exit(0)
            """.write(to: dir.appendingPathComponent("seed.lua"), atomically: true, encoding: .utf8)
        let seed = try BinaryRunner.run(storeOptions + ["run", "seed.lua"], in: dir)
        #expect(seed.status == 0, "\(seed.stderr)")

        func click(_ name: String, _ instance: String, button: Int) throws -> String {
            let data = try JSONSerialization.data(withJSONObject: ["name": name, "instance": instance, "button": button, "x": 1186, "y": 13],
                                                  options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }
        // As i3bar writes them: "[", then one event a line, a comma before all but the first.
        let events = [
            try click("cdscript", "tea", button: 1),
            try click("cdscript", Self.hostileID, button: 1),
            "this is no click",
            try click("cdscript", "held", button: 3),
            try click("volume", "held", button: 1),
        ]
        let input = dir.appendingPathComponent("clicks")
        try ("[\n" + events.enumerated().map { ($0.offset == 0 ? "" : ",") + $0.element }.joined(separator: "\n") + "\n")
            .write(to: input, atomically: true, encoding: .utf8)

        let bar = try BinaryRunner.run(["watch", "--bar", "i3bar"] + storeOptions + ["tea", Self.hostileID, "held"], signal: SIGTERM, signalAfter: 2.5,
                                       in: dir, stdinPath: input.path)
        #expect(bar.status == 143, "ran on after its input ended, until the signal: \(bar.stderr)")
        let complaints = bar.stderr.split(separator: "\n").filter { $0.contains("ignored a click event") }
        #expect(complaints.count == 1 && complaints.first?.contains("this is no click") == true, "\(bar.stderr)")

        let listed = try BinaryRunner.run(["list", "--json"] + storeOptions, in: dir)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stdout)")
        let states = Dictionary(uniqueKeysWithValues: entries.map { ($0["id"] as? String ?? "", $0["state"] as? String ?? "") })
        #expect(states == ["tea": "paused", Self.hostileID: "running", "held": "paused"], "\(states)")

        // The blocks name each countdown exactly, and the bar showed the clicks' outcome.
        let updates = bar.lines.dropFirst(2).map { $0.hasPrefix(",") ? String($0.dropFirst()) : $0 }
        let blocks = try updates.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [[String: Any]], "\($0)") }
        #expect(blocks.first?.compactMap { $0["instance"] as? String }.sorted() == ["held", "tea", Self.hostileID].sorted(), "\(blocks.first ?? [])")
        let last = Dictionary(uniqueKeysWithValues: (blocks.last ?? []).map { ($0["instance"] as? String ?? "", $0) })
        #expect(last["tea"]?["color"] as? String == "#999999", "tea shown paused: \(last)")
        #expect((last[Self.hostileID]?["full_text"] as? String)?.hasPrefix("⏲") == true, "shown running: \(last)")
    }
}
