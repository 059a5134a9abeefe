import Foundation
import Testing

/// `process.stored()` (under `cdscript test`) is documented as `cdscript list
/// --json`'s shape: the same countdowns give the same fields with the same values,
/// but for the fields the listing writes as `null`, which a Lua table cannot hold.
@Suite("process.stored() and list --json: one shape")
struct StoredShapeTests {
    /// The same three countdowns for both: running, paused, and overtime past its end.
    static let starts = """
        countdown.start{ id = "a", seconds = 100, every = 2, persist = true, title = "Tea \\"time\\"", actions = {"notify", "log"} }
        countdown.start{ id = "b", seconds = 50, persist = true }:pause()
        countdown.start{ id = "c", seconds = 0.1, persist = true, overtime = true }
        """

    /// One line per countdown: `id key=value ...`, keys sorted (a list as its
    /// items joined by commas); `remaining`,
    /// `overtime` and `deadline` stand as present, not by value (time moves on
    /// between the two runs).
    static func line(_ entry: [String: Any]) -> String {
        let id = entry["id"] as? String ?? "?"
        let fields = entry.keys.sorted().filter { $0 != "id" && !(entry[$0] is NSNull) }.map { key -> String in
            if ["remaining", "overtime", "deadline"].contains(key) { return key }
            // Numbers by value (the listing writes 2 where Lua writes 2.0).
            if let number = entry[key] as? NSNumber, !(entry[key] is String) { return "\(key)=\(number.doubleValue)" }
            if let list = entry[key] as? [Any] { return "\(key)=" + list.map { "\($0)" }.joined(separator: ",") }
            return "\(key)=\(entry[key].map { "\($0)" } ?? "")"
        }
        return ([id] + fields).joined(separator: " ")
    }

    @Test("the same countdowns: the same fields and values in process.stored() as in list --json (null there, absent here)")
    func sameShape() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-shape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("spec"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Under cdscript test: the entries written as JSON objects, one a line, to a
        // file (a test's printed output is kept for its report).
        try """
            it("prints the stored countdowns", function()
            \(Self.starts)
              clock.advance(0.3)
              local out = assert(io.open("stored.jsonl", "w"))
              for _, e in ipairs(process.stored()) do
                local parts = {}
                for k, v in pairs(e) do
                  local value = type(v) == "string" and string.format("%q", v) or tostring(v)
                  if type(v) == "table" then
                    local items = {}
                    for i, item in ipairs(v) do items[i] = string.format("%q", item) end
                    value = "[" .. table.concat(items, ",") .. "]"
                  end
                  parts[#parts + 1] = string.format("%q:%s", k, value)
                end
                out:write("{" .. table.concat(parts, ",") .. "}\\n")
              end
              out:close()
            end)
            """.write(to: dir.appendingPathComponent("spec/shape_spec.lua"), atomically: true, encoding: .utf8)
        let spec = try BinaryRunner.run(["test", "spec"], in: dir)
        #expect(spec.status == 0, "\(spec.stdout)\(spec.stderr)")
        let written = try String(contentsOf: dir.appendingPathComponent("stored.jsonl"), encoding: .utf8)
        let stored = try written.split(separator: "\n").map(String.init).map { line -> [String: Any] in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        // A real store: the same starts, 0.3 s on, then list --json.
        let state = dir.appendingPathComponent("state").path
        try (Self.starts + "\ncountdown.start{ seconds = 0.3, on_done = function() os.exit(0) end }\n")
            .write(to: dir.appendingPathComponent("starts.lua"), atomically: true, encoding: .utf8)
        let run = try BinaryRunner.run(["--state-dir", state, "run", "starts.lua"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let list = try BinaryRunner.run(["list", "--json", "--state-dir", state], in: dir)
        let listed = try #require(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]], "\(list.stdout)")
        #expect(stored.map(Self.line) == listed.map(Self.line), "process.stored():\n\(stored.map(Self.line))\nlist --json:\n\(listed.map(Self.line))")
        #expect(stored.map(Self.line) == [
            "a actions=notify,log deadline every=2.0 kind=duration remaining state=running title=Tea \"time\" total=100.0",
            "b actions= every=1.0 kind=duration remaining state=paused total=50.0",
            "c actions= deadline every=1.0 kind=duration overtime remaining state=overtime total=0.1",
        ], "\(stored.map(Self.line))")
    }
}
