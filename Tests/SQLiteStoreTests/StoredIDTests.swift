import CountdownCore
import SQLiteStore
import Foundation
import Testing

@Suite("Ids in the SQLite store are never merged")
struct StoredIDTests {
    @Test("an id with a NUL byte is refused by every operation, so \"k\\0one\" and \"k\\0two\" never become \"k\"")
    func nulRefused() throws {
        let store = SQLiteCountdownStore(directory: temporaryDirectory())
        try store.save(record("k"))
        for id in ["k\0one", "k\0two"] {
            #expect(throws: StoreError.self) { try store.save(record(id)) }
            #expect(throws: StoreError.self) { try store.load(id: id) }
            #expect(throws: StoreError.self) { try store.delete(id: id) }
            #expect(throws: StoreError.self) { try store.modify(id: id) { $0 = nil } }
        }
        #expect(try store.list().map(\.id) == ["k"])
        #expect(try store.load(id: "k") == record("k"))
    }
}
