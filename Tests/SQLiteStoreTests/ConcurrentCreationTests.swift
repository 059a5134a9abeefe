import CountdownCore
import Foundation
import SQLiteStore
import Testing

/// Many openers of one new store at the same instant: each migration is a
/// transaction of its own, so an opener can lose a race at any of them, and
/// every opener must still end with the store migrated and its record saved.
@Suite("Several openers creating one store at once")
struct ConcurrentCreationTests {
    @Test("twelve stores opened on threads released together all save, and the file is whole", arguments: 0..<10)
    func threadsCreateOneStore(round: Int) throws {
        let dir = temporaryDirectory()
        let openers = 12
        let start = DispatchSemaphore(value: 0)
        let failures = Failures()
        let group = DispatchGroup()
        for i in 0..<openers {
            DispatchQueue.global().async(group: group) {
                start.wait()
                do {
                    try SQLiteCountdownStore(directory: dir).save(record("t\(i)"))
                } catch {
                    failures.add("opener \(i): \(error)")
                }
            }
        }
        for _ in 0..<openers { start.signal() }
        group.wait()
        #expect(failures.all.isEmpty, "round \(round): \(failures.all)")
        let store = SQLiteCountdownStore(directory: dir)
        #expect(Set(try store.list().map(\.id)) == Set((0..<openers).map { "t\($0)" }))
    }
}

/// Failures collected from several threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func add(_ message: String) { lock.withLock { messages.append(message) } }
    var all: [String] { lock.withLock { messages } }
}
