import CountdownCore
import Foundation
import SQLiteStore
import Testing

/// SQLite's bulk removal (issue 53): a transaction per slice, not per countdown, and
/// a write-ahead log emptied after a bulk write instead of staying as large as it.
@Suite("SQLite removes many countdowns in a few transactions and leaves no large log behind")
struct BulkDeleteTests {
    static let s = Time.nanosecondsPerSecond

    static func records(_ count: Int) -> [StoredCountdown] {
        (0..<count).map {
            StoredCountdown(id: "c\($0)", state: .running, kind: .duration, wallDeadline: 1_800_000_600 * s, every: s, total: 600 * s,
                            bootID: "boot", bootDeadline: 700 * s, updatedAt: 1_800_000_000 * s)
        }
    }

    @Test("5,000 ids are removed in 3 write transactions (slices of 2,000), and the log is truncated to nothing")
    func fewTransactions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-bulk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SQLiteCountdownStore(directory: directory)
        try store.saveAll(Self.records(5_000))
        let wal = store.path + "-wal"
        let afterSave = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(afterSave == 0, "a bulk save leaves an empty log: \(afterSave) bytes")
        let before = store.writeTransactions
        let removed = try store.deleteAll(ids: Self.records(5_000).map(\.id))
        #expect(removed.count == 5_000)
        #expect(store.writeTransactions - before == 3, "write transactions: \(store.writeTransactions - before)")
        let afterDelete = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(afterDelete == 0, "the log after removing 5,000: \(afterDelete) bytes")
        #expect(try store.list().isEmpty)
    }
}
