import Foundation
import Testing
@testable import ScriptTesting

@Suite("Snapshot tests: to_match_snapshot writes __snapshots__/FILE.snap, then compares; --update-snapshots rewrites")
struct SnapshotTests {
    static func spec(label: String) -> String {
        """
        describe("screen", function()
          it("shows the label", function()
            view.title("Tea")
            view.label{ id = "status", text = "\(label)" }
            expect(view.screen()).to_match_snapshot()
            expect({ n = 1 }).to_match_snapshot()
          end)
        end)
        """
    }

    @Test("first run writes, later runs compare, a change fails with the lines marked, --update-snapshots rewrites")
    func lifecycle() throws {
        let path = try Fixture.write(Self.spec(label: "ready in 3 min"), name: "screen_spec.lua")
        let snap = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("__snapshots__/screen_spec.snap").path
        #expect(!FileManager.default.fileExists(atPath: snap))

        let first = TestRunner().run(file: path)
        #expect(first.results.map(\.status) == [.passed])
        let written = try String(contentsOfFile: snap, encoding: .utf8)
        #expect(written.hasPrefix("== screen > shows the label #1 ("))
        #expect(written.contains("ready in 3 min"))
        #expect(written.contains("== screen > shows the label #2 (7 bytes)\n{n = 1}\n"))

        #expect(TestRunner().run(file: path).results.map(\.status) == [.passed])

        try Self.spec(label: "ready in 2 min").write(toFile: path, atomically: true, encoding: .utf8)
        let changed = TestRunner().run(file: path)
        #expect(changed.results.map(\.status) == [.failed])
        let message = changed.results.first?.message ?? ""
        #expect(message.hasPrefix("expected the snapshot screen > shows the label #1 in "), "\(message)")
        #expect(message.contains("(--update-snapshots rewrites it): line "))
        #expect(message.contains("\n- ") && message.contains("ready in 3 min"))
        #expect(message.contains("\n+ ") && message.contains("ready in 2 min"))
        #expect(try String(contentsOfFile: snap, encoding: .utf8) == written)

        let updater = TestRunner()
        updater.updateSnapshots = true
        #expect(updater.run(file: path).results.map(\.status) == [.passed])
        let rewritten = try String(contentsOfFile: snap, encoding: .utf8)
        #expect(rewritten.contains("ready in 2 min") && !rewritten.contains("ready in 3 min"))
        #expect(TestRunner().run(file: path).results.map(\.status) == [.passed])
    }
}
