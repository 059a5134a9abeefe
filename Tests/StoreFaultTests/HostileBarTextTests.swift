import Foundation
import RedisTestServer
import Testing

extension StoreFaults {
    /// Whatever a shared store holds reaches a bar only as text: the same
    /// hostile ids (markup, tags, `#`, `%`, ESC, C1, bidi, newlines, 10,000
    /// characters), stored on SQLite and on Redis, through every format a bar reads.
    @Suite("Hostile ids reach every bar as text", .serialized)
    struct HostileBarTextTests {
        /// The ids as `{id}` joined by `|`: what every bar must show.
        static let expected = HostileIDs.shown.joined(separator: "|")
        static let idOnly = ["--format", "{id}", "--separator", "|"]

        @Test("status, status --format, --for tmux and watch --bar waybar, i3bar and polybar show hostile ids from SQLite and Redis as text")
        func everyBarOnBothStores() throws {
            let server = try RedisServer()
            defer { server.stop() }
            let sqlite = ["--state-dir", Scratch.directory("hostile-sqlite")]
            let redis = ["--store", server.url, "--state-dir", Scratch.directory("hostile-redis")]
            for store in [sqlite, redis] {
                try HostileIDs.seed(store)
                try Self.expectText(store)
            }
        }

        static func expectText(_ store: [String]) throws {
            let name = store.contains("--store") ? "redis" : "sqlite"
            let plain = try LiveProcess.run(["status"] + store)
            #expect(plain.status == 0 && plain.lines.count == 1, "\(name): \(plain.lines.count) lines, \(plain.stderr)")
            let line = plain.lines.joined(separator: "\n")
            #expect(HostileIDs.rawControls(line).isEmpty, "\(name): \(line.debugDescription)")
            let items = HostileIDs.shown.indices.map { "⏸ \(HostileIDs.shown[$0]) \(HostileIDs.left($0))" }
            #expect(HostileIDs.polybarShows(line) == items.joined(separator: "  "), "\(name) status: \(line.prefix(400).debugDescription)")

            let formatted = try LiveProcess.run(["status"] + idOnly + store)
            #expect(formatted.lines.count == 1 && HostileIDs.polybarShows(formatted.lines[0]) == expected,
                    "\(name) --format: \(formatted.lines.joined(separator: "\n").prefix(400).debugDescription) \(formatted.stderr)")

            let tmux = try LiveProcess.run(["status", "--for", "tmux"] + idOnly + store)
            #expect(tmux.lines.count == 1 && HostileIDs.tmuxShows(tmux.lines[0]).flatMap(HostileIDs.polybarShows) == expected,
                    "\(name) --for tmux: \(tmux.lines.joined(separator: "\n").prefix(400).debugDescription) \(tmux.stderr)")

            let waybar = try object(try firstUpdate("waybar", store)) as? [String: Any]
            let text = try #require(waybar?["text"] as? String, "\(name): \(String(describing: waybar))")
            let tooltip = try #require(waybar?["tooltip"] as? String)
            #expect(HostileIDs.entitiesRead(text) == expected, "\(name) waybar text: \(text.prefix(400).debugDescription)")
            let tips = HostileIDs.shown.indices.map { "\(HostileIDs.shown[$0]): paused, \(HostileIDs.left($0)) left" }
            #expect(HostileIDs.entitiesRead(tooltip) == tips.joined(separator: "\n"), "\(name) waybar tooltip: \(tooltip.prefix(400).debugDescription)")

            let blocks = try object(try firstUpdate("i3bar", store)) as? [[String: Any]]
            #expect(blocks?.map { $0["full_text"] as? String } == HostileIDs.shown, "\(name) i3bar: \(String(describing: blocks).prefix(400))")
            #expect(blocks?.allSatisfy { $0["markup"] == nil } == true, "i3bar reads full_text as plain text unless a block asks for markup")

            let polybar = try firstUpdate("polybar", store)
            #expect(HostileIDs.polybarShows(polybar) == expected, "\(name) polybar: \(polybar.prefix(400).debugDescription)")
        }

        /// The first update `watch --bar BAR` writes, the line as it came.
        static func firstUpdate(_ bar: String, _ store: [String]) throws -> String {
            // Named: without ids a bar shows the first countdown and a count of the others.
            let watch = try LiveProcess(["watch", "--bar", bar] + idOnly + store + HostileIDs.all)
            defer { watch.signal(SIGKILL); watch.wait() }
            // i3bar's header and its array's "[" come first.
            let skip = bar == "i3bar" ? 2 : 0
            let deadline = Date().addingTimeInterval(10)
            while watch.texts.count <= skip && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            let texts = watch.texts
            #expect(texts.count > skip, "\(bar): \(texts) \(watch.stderr)")
            let line = texts.count > skip ? texts[skip] : ""
            #expect(HostileIDs.rawControls(line).isEmpty, "\(bar): \(line.prefix(400).debugDescription)")
            return line
        }

        static func object(_ line: String) throws -> Any {
            try JSONSerialization.jsonObject(with: Data(line.utf8))
        }

        @Test("status and watch --bar polybar make no polybar tag across ids and separators: run% then {A1:...:} with an empty separator, or a separator ending in %")
        func polybarJoins() throws {
            let dir = Scratch.directory("polybar-join")
            let store = ["--state-dir", dir]
            let seeded = try LiveProcess.run(store + [Scratch.script("""
                countdown.start{ id = "run%", seconds = 100, persist = true }:pause()
                countdown.start{ id = "{A1:touch /tmp/cdscript-polybar-ran:}click", seconds = 101, persist = true }:pause()
                countdown.start{ id = "{F#f00}", seconds = 102, persist = true }:pause()
                os.exit(0)
                """)])
            #expect(seeded.status == 0, "\(seeded.stderr)")
            for separator in ["", "%", " %", "{", "%{"] {
                let arguments = ["--format", "{id}", "--separator", separator]
                let status = try LiveProcess.run(["status"] + arguments + store)
                #expect(status.lines.count == 1 && !status.lines[0].contains("%{"), "separator \(separator.debugDescription): \(status.lines)")
                let watch = try LiveProcess(["watch", "--bar", "polybar"] + arguments + store
                                            + ["run%", "{A1:touch /tmp/cdscript-polybar-ran:}click", "{F#f00}"])
                defer { watch.signal(SIGKILL); watch.wait() }
                let line = watch.waitForLine { _ in true }?.text
                #expect(line != nil && line?.contains("%{") == false, "separator \(separator.debugDescription): \(String(describing: line))")
                #expect(line == status.lines.first, "status and watch --bar polybar escape alike")
            }
        }
    }
}
