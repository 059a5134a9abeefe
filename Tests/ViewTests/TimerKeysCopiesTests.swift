import CountdownCore
import Foundation
import LuaHost
import TerminalView
import Testing

/// The timer's keys are defined once, by what `timer_keys.lua` binds
/// (`keys.actions`) and its default step; the help text, the README, the
/// annotations, the plugin page, the example and the scripts' comments only
/// name them. Each of those copies is read here and held to the source: a key
/// added, removed or renamed in the plugin fails until every copy says so.
@Suite("Every text that lists the timer's keys lists what timer_keys.lua binds")
struct TimerKeysCopiesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The keys the plugin binds, as texts name them ("Space" for "space"),
    /// found by running it: the keys of `keys.actions`.
    static func boundKeys() throws -> Set<String> {
        let h = ViewHarness(columns: 60, rows: 12)
        let error = h.run("""
            local names = {}
            for key in pairs(use("timer_keys").actions) do names[#names + 1] = key end
            table.sort(names)
            view.label{ id = "keys", text = table.concat(names, " ") }
            """)
        #expect(error == nil, "\(error ?? "")")
        let listed = try #require(h.view.element("keys")?.text)
        return Set(listed.split(separator: " ").map { $0 == "space" ? "Space" : String($0) })
    }

    /// The default step in seconds (`options.step or N` in the plugin).
    static func defaultStep() throws -> String {
        let source = try text("Sources/LuaHost/BuiltinPlugins/timer_keys.lua")
        let match = try #require(source.firstMatch(of: /local step = options\.step or (\d+)/))
        return String(match.1)
    }

    /// A place that names the keys: the text of `file` from `from` up to `to`.
    struct Copy: CustomStringConvertible {
        let file: String
        let from: String
        let to: String
        /// Whether it names the step too ("10 s", "(default 10)", "(10)").
        var namesStep = true
        var description: String { "\(file) (\(from)...)" }

        func passage() throws -> String {
            let text = try TimerKeysCopiesTests.text(file)
            let start = try #require(text.range(of: from), "\(file) no longer has \"\(from)\": update this test's copy list")
            let end = try #require(text.range(of: to, range: start.upperBound..<text.endIndex), "\(file): no \"\(to)\" after \"\(from)\"")
            return String(text[start.lowerBound..<end.upperBound])
        }
    }

    static let copies = [
        Copy(file: "Sources/LuaHost/BuiltinPlugins/timer_keys.lua", from: "description = \"", to: "\" }"),
        Copy(file: "Sources/cdscript/BuiltinScripts/timer.lua", from: "-- Keys (the built-in plugin timer_keys):", to: "quits."),
        Copy(file: "Sources/cdscript/TimerCommand.swift", from: "Keys: ", to: "quits."),
        Copy(file: "README.md", from: "Keys: `+`", to: "quits"),
        Copy(file: "docs/command-line.md", from: "is `countdown.start(options)` with", to: "acting on that countdown", namesStep: false),
        Copy(file: "types/cdscript.lua", from: "is countdown.start with the keys", to: "acting on that countdown", namesStep: false),
        Copy(file: "examples/flash_sale.lua", from: "-- Keys (the built-in timer_keys plugin", to: "only)."),
        Copy(file: "docs/plugins.md", from: "| `timer_keys` |", to: "timer_keys.lua` |"),
    ]

    /// The keys a passage names: the one-character words (`+`, `r`) and Space,
    /// less the article "a", numbers and the unit in "10 s".
    static func namedKeys(_ passage: String) -> Set<String> {
        let words = passage.split(whereSeparator: { " \n\t,.;:()`/|\"\\={}".contains($0) }).map(String.init)
        var keys: Set<String> = []
        for (i, word) in words.enumerated() {
            if word == "Space" { keys.insert(word) }
            guard word.count == 1, word.lowercased() != "a", Double(word) == nil else { continue }
            if word == "s", i > 0, Double(words[i - 1]) != nil { continue }
            keys.insert(word)
        }
        return keys
    }

    @Test("the keys each copy names are the keys the plugin binds (q, the view's own, and Caps Lock's capitals aside)")
    func keysAgree() throws {
        let bound = try Self.boundKeys()
        #expect(bound.isSuperset(of: ["+", "-", "Space"]), "\(bound)")
        for copy in Self.copies {
            let named = Self.namedKeys(try copy.passage())
            let missing = bound.subtracting(named)
            #expect(missing.isEmpty, "\(copy) does not name \(missing.sorted())")
            let allowed = bound.union(bound.map { $0.uppercased() }).union(["q", "Q"])
            let unknown = named.subtracting(allowed)
            #expect(unknown.isEmpty, "\(copy) names keys the plugin does not bind: \(unknown.sorted())")
        }
    }

    @Test("the copies that say how much + and - add say the plugin's default step")
    func stepAgrees() throws {
        let step = try Self.defaultStep()
        for copy in Self.copies where copy.namesStep {
            let passage = try copy.passage()
            let says = passage.contains("\(step) s") || passage.contains("(\(step))") || passage.contains("default \(step)")
            #expect(says, "\(copy) does not say \(step) s: \(passage)")
        }
        let field = try #require(try Self.text("types/cdscript.lua").firstMatch(of: /---@field step number\? [^\n]*\(default (\d+)\)/))
        #expect(String(field.1) == step, "types/cdscript.lua's timer_keys step: \(field.1), the plugin's: \(step)")
    }

    @Test("The command line page's table of the timer's keys has a row for each key the plugin binds, and no other")
    func readmeTable() throws {
        let bound = try Self.boundKeys()
        let rows = try Self.text("docs/command-line.md").split(separator: "\n").filter { $0.hasPrefix("| key ") }
        // The first cell: "| key `r` (or `R`) |" names r (and its capital).
        let named = rows.map { row -> String in
            let cell = row.dropFirst("| key ".count).prefix { $0 != "|" }
            return String(cell)
        }
        let keys = Self.namedKeys(named.joined(separator: " "))
        // q quits (the view's own key), and so does Q (termdown's).
        #expect(keys.subtracting(bound.union(bound.map { $0.uppercased() }).union(["q", "Q"])).isEmpty, "\(keys.sorted())")
        #expect(bound.isSubset(of: keys), "docs/command-line.md's key rows: \(keys.sorted()), bound: \(bound.sorted())")
    }
}
