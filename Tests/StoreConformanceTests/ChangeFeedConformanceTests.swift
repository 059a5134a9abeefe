import CountdownCore
import Foundation
import Testing

/// Waits on `feed`'s descriptors, as the run loop does, until it has reported
/// `wanted` (or for at most `timeout` seconds, on a busy machine), and returns
/// what it reported, merged.
private func changes(_ feed: CountdownChangeFeed, until wanted: CountdownChanges, within timeout: Double = 10) -> CountdownChanges {
    var seen = CountdownChanges.none
    let deadline = Date().addingTimeInterval(timeout)
    while seen != wanted && Date() < deadline {
        var fds = feed.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if poll(&fds, nfds_t(fds.count), 100) > 0 { seen = seen.merged(with: feed.drain()) }
    }
    return seen
}

/// `CountdownChangeFeed`, on every store several processes share.
@Suite("Every shared store tells a process which countdowns others changed")
struct ChangeFeedConformanceTests {
    @Test("saves, changes and deletes through another handle are reported by id; NFC and NFD apart", arguments: StoreKind.shared)
    func othersChangesByID(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let t = fixture.now
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        try fixture.store.save(fixture.started("held", 60 * s, at: t))
        let feed = try #require(try fixture.changeFeed(following: fixture.store))
        let other = try fixture.another()
        try other.save(fixture.started(nfc, 60 * s, at: t))
        try other.save(fixture.started(nfd, 60 * s, at: t))
        #expect(changes(feed, until: .ids([CountdownID(nfc), CountdownID(nfd)])) == .ids([CountdownID(nfc), CountdownID(nfd)]))
        try other.modify(id: "held") { _ = $0?.append(s, at: t) }
        #expect(changes(feed, until: .ids(["held"])) == .ids(["held"]))
        #expect(try other.delete(id: nfc))
        #expect(changes(feed, until: .ids([CountdownID(nfc)])) == .ids([CountdownID(nfc)]))
        // What was reported is what changed: re-reading it finds the change.
        #expect(try fixture.store.load(id: "held")?.total == 61 * s)
        #expect(try fixture.store.load(id: nfc) == nil)
    }
}
