import CountdownCore
import Testing

/// "café" with a precomposed é (NFC) and with e + combining accent (NFD): equal as
/// Swift `String`s, two ids as bytes.
private let nfc = "caf\u{E9}"
private let nfd = "cafe\u{301}"

@Suite("Ids are keyed and compared as bytes, never by Unicode normal form")
struct CountdownIDTests {
    @Test("CountdownID: NFC and NFD are two keys; order is byte order, as SQLite sorts")
    func bytesNotNormalForm() {
        #expect(nfc == nfd, "the premise: Swift's String equates them")
        #expect(CountdownID(nfc) != CountdownID(nfd))
        #expect(Set([CountdownID(nfc), CountdownID(nfd), CountdownID(nfc)]).count == 2)
        // "e" (0x65) sorts before "é" (0xC3 0xA9) in bytes.
        #expect(CountdownID(nfd) < CountdownID(nfc))
        #expect([nfc, "b", nfd].sorted { $0.precedesInBytes($1) }.map { Array($0.utf8) } == [Array("b".utf8), Array(nfd.utf8), Array(nfc.utf8)])
        #expect(CountdownChanges.ids([CountdownID(nfd)]).contains(nfd))
        #expect(!CountdownChanges.ids([CountdownID(nfd)]).contains(nfc))
    }

    @Test("same bytes means every byte: ids of one length apart in their first or last byte, short (inline) and long (heap) ones, and prefixes, are different")
    func everyByteCompared() {
        // Made apart, so that no two share their storage.
        let long = String(repeating: "x", count: 40), longAgain = String(repeating: "x", count: 40)
        let longFirst = "y" + String(repeating: "x", count: 39), longLast = String(repeating: "x", count: 39) + "y"
        #expect(long.sameBytes(as: longAgain))
        #expect(CountdownID(long) == CountdownID(longAgain))
        #expect(!long.sameBytes(as: longFirst))
        #expect(!long.sameBytes(as: longLast))
        #expect(CountdownID(long) != CountdownID(longLast))
        #expect("kept".sameBytes(as: String("_kept_".dropFirst().dropLast())))
        #expect(!"kept".sameBytes(as: "kepu"))
        #expect(!"kept".sameBytes(as: "lept"))
        #expect(!"kept".sameBytes(as: "kep"))
        #expect(!"kep".sameBytes(as: "kept"))
        #expect("".sameBytes(as: ""))
        #expect(!"".sameBytes(as: "k"))
        #expect(!nfc.sameBytes(as: nfd))
        #expect(nfc.sameBytes(as: "caf\u{E9}"))
    }

    @Test("the in-memory store keeps both, loads each, and removes one without the other")
    func inMemoryStore() throws {
        let store = InMemoryCountdownStore()
        let s = Time.nanosecondsPerSecond
        for (id, seconds) in [(nfc, 10), (nfd, 20)] {
            try store.save(StoredCountdown(id: id, state: .running, kind: .duration, wallDeadline: Int64(seconds) * s, every: s,
                                           total: Int64(seconds) * s, bootID: nil, bootDeadline: nil, updatedAt: 0))
        }
        #expect(try store.list().count == 2)
        #expect(try store.load(id: nfc)?.total == 10 * s)
        #expect(try store.load(id: nfd)?.total == 20 * s)
        try store.modify(id: nfd) { $0?.total += s }
        #expect(try store.load(id: nfc)?.total == 10 * s)
        #expect(try store.delete(id: nfc))
        #expect(try store.load(id: nfd)?.total == 21 * s)
    }

    @Test("the scheduler: starting NFD does not replace NFC, and each id finds its own countdown")
    func schedulerIDs() {
        let clock = VirtualClock(boot: 0, wall: 0)
        let scheduler = Scheduler(clock: clock)
        let s = Time.nanosecondsPerSecond
        let a = scheduler.start(CountdownSpec(id: nfc, deadline: .boot(10 * s), every: s, length: 10 * s))
        let b = scheduler.start(CountdownSpec(id: nfd, deadline: .boot(20 * s), every: s, length: 20 * s))
        #expect(scheduler.activeCount == 2)
        #expect(scheduler.key(forID: nfc) == a)
        #expect(scheduler.key(forID: nfd) == b)
        scheduler.cancel(a)
        #expect(scheduler.key(forID: nfd) == b)
        #expect(scheduler.key(forID: nfc) == nil)
    }
}
