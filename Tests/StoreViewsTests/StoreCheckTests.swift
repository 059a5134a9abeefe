import CommandEnding
import CountdownCore
import Foundation
import Testing
@testable import StoreViews

@Suite struct StoreCheckTests {
    /// A state folder holding a store with `ids`, started now.
    private func folder(holding ids: [String]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let store = StoreLocation(stateDir: folder.path).sqliteStore()
        for id in ids {
            try store.save(try StoredCountdown.started(id: id, spec: .duration(60 * Time.nanosecondsPerSecond), every: Time.nanosecondsPerSecond,
                                                       overtime: false, at: storeNow()))
        }
        return folder
    }

    @Test func aWholeStoreIsSaidToBeOkWithItsCountAndPlace() throws {
        let folder = try folder(holding: ["a", "b"])
        defer { folder.remove() }
        var lines: [String] = []
        try StoreCheck.run(StoreLocation(stateDir: folder.path), full: true, json: false) { lines.append($0) }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("checked 2 countdowns in ") == true)
        #expect(lines.first?.hasSuffix(": ok") == true)
    }

    @Test func asJSONTheReportSaysOkTheCountAndNoProblems() throws {
        let folder = try folder(holding: ["a"])
        defer { folder.remove() }
        var text = ""
        try StoreCheck.run(StoreLocation(stateDir: folder.path), full: false, json: true) { text += $0 }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(report["ok"] as? Bool == true)
        #expect(report["countdowns"] as? Int == 1)
        #expect((report["problems"] as? [Any])?.isEmpty == true)
    }

    @Test func aFileThatIsNotADatabaseIsDamagedOrUncheckableNeverOk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = StoreLocation(stateDir: folder.path).sqliteStore().path
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        do {
            try StoreCheck.run(StoreLocation(stateDir: folder.path), full: false, json: false) { _ in }
            Issue.record("a file of 'A's was checked as whole")
        } catch {
            #expect([ExitStatus.storeDamaged.rawValue, ExitStatus.storeError.rawValue].contains(error.status))
        }
    }
}
