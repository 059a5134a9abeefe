import CommandEnding
import Testing
@testable import StoreViews

/// A Redis journal set aside during a command makes it exit 6, whatever else it did.
@Suite("A journal set aside ends the command with exit 6")
struct UnreadableJournalTests {
    @Test("nothing set aside: no exit; set aside: exit 6 (storeError)")
    func exitSixOnceFound() {
        UnreadableJournal.found = false
        #expect(throws: Never.self) { try UnreadableJournal.check() }
        UnreadableJournal.found = true
        defer { UnreadableJournal.found = false }
        #expect(throws: CommandExit(.storeError)) { try UnreadableJournal.check() }
    }
}
