import CountdownCore
import Foundation
import LuaHost
import Testing

/// "café" in NFC and in NFD: equal as Swift `String`s, two ids as bytes.
@Suite("Persistent ids that differ only in Unicode normal form are two stored countdowns")
struct NormalFormIDTests {
    @Test("both are stored; a change made elsewhere to one reaches that one only")
    func storedApartAndFollowedApart() throws {
        let store = InMemoryCountdownStore()
        let bed = LuaTestbed()
        bed.host.store.persistence = store
        bed.mustRun(#"""
            a = countdown.start{ id = "caf\u{E9}", seconds = 10, persist = true }
            b = countdown.start{ id = "cafe\u{301}", seconds = 20, persist = true }
            """#)
        #expect(store.countdowns.count == 2)
        #expect(store.countdowns[CountdownID("caf\u{E9}")]?.total == 10 * Time.nanosecondsPerSecond)
        #expect(store.countdowns[CountdownID("cafe\u{301}")]?.total == 20 * Time.nanosecondsPerSecond)
        try store.modify(id: "cafe\u{301}") { $0 = nil }
        bed.host.store.applyChanges(.ids([CountdownID("cafe\u{301}")]))
        #expect(bed.eval("a:state() .. ' ' .. b:state()") == "running cancelled")
        #expect(try store.load(id: "caf\u{E9}") != nil)
    }
}
