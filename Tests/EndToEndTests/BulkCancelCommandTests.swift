import Foundation
import RedisTestServer
import Testing

/// `cdscript cancel --all` and `cancel --match PATTERN` (issue 53), on both stores:
/// what they remove, what they print, and every way they refuse.
@Suite("cancel --all and --match remove many stored countdowns at once")
struct BulkCancelCommandTests {
    /// Stores `ids` (running for an hour) with a script run against `store`.
    static func store(_ ids: [String], _ store: [String], in directory: URL) throws {
        let list = ids.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        let script = "for _, id in ipairs{ \(list.joined(separator: ", ")) } do countdown.start{ id = id, seconds = 3600, persist = true } end\nos.exit(0)\n"
        try script.write(to: directory.appendingPathComponent("make.lua"), atomically: true, encoding: .utf8)
        let made = try BinaryRunner.run(store + ["make.lua"], in: directory)
        try #require(made.status == 0, "\(made.stderr)")
    }

    static func ids(_ store: [String]) throws -> [String] {
        let r = try BinaryRunner.run(["list", "--json"] + store)
        let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        return rows.compactMap { $0["id"] as? String }.sorted()
    }

    static func scenario(_ store: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-bulk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.store(["exam-1", "exam-2", "exam-10", "tea", "<b>x</b>"], store, in: directory)

        let some = try BinaryRunner.run(["cancel", "--match", "exam-?"] + store)
        #expect(some.status == 0 && some.stdout == "cancelled 2 countdowns\n", "\(some.stdout)\(some.stderr)")
        #expect(try ids(store) == ["<b>x</b>", "exam-10", "tea"])

        let none = try BinaryRunner.run(["cancel", "--match", "zz*"] + store)
        #expect(none.status == 7 && none.stderr.contains("no stored countdown's id matches 'zz*'"), "\(none.stderr)")

        let all = try BinaryRunner.run(["cancel", "--all"] + store)
        #expect(all.status == 0 && all.stdout == "cancelled 3 countdowns\n", "\(all.stdout)\(all.stderr)")
        #expect(try ids(store).isEmpty)
        let again = try BinaryRunner.run(["cancel", "--all"] + store)
        #expect(again.status == 0 && again.stdout == "cancelled 0 countdowns\n", "nothing left is not an error: \(again.stderr)")
    }

    @Test("on SQLite: --match removes what the pattern matches (exit 0, a count), none matching is exit 7, --all empties the store")
    func sqlite() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-bulk-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        try Self.scenario(["--state-dir", state.path])
    }

    @Test("on Redis: the same")
    func redis() throws {
        let server = try RedisServer()
        try Self.scenario(["--store", server.url])
    }

    @Test("an id with --all or --match, both, neither, or a pattern that does not parse: bad usage (64), nothing removed")
    func usage() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-bulk-usage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let store = ["--state-dir", state.path]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-bulk-u-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.store(["a"], store, in: directory)
        for arguments in [["cancel"], ["cancel", "a", "--all"], ["cancel", "--all", "--match", "*"], ["cancel", "--match", "[a"],
                          ["cancel", "--match", "[z-a]"], ["watch", "--match", "[a"]] {
            let r = try BinaryRunner.run(arguments + store)
            #expect(r.status == 64, "\(arguments): \(r.status) \(r.stderr)")
        }
        let pattern = try BinaryRunner.run(["cancel", "--match", "[a"] + store)
        #expect(pattern.stderr.contains("the pattern \"[a\" is not valid: a [ is not closed by ]"), "\(pattern.stderr)")
        #expect(try Self.ids(store) == ["a"])
    }
}
