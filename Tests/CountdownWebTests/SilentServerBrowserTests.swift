import CountdownCore
@testable import CountdownWeb
import Foundation
import Testing

/// A server that stops talking without closing its connections (its host gone,
/// the network cut, its process stopped): the pages in chromium must notice by
/// the missing heartbeats, say "reconnecting" without a time, and come back by
/// themselves. The server here beats every second, and falls silent through
/// its test hook (`setSilent`), its connections left open.
@Suite("Pages notice a server gone silent without a close", .serialized, .enabled(if: Browser.available, "\(Browser.unavailable ?? "")"))
struct SilentServerBrowserTests {
    static let interval = 1.0
    static let digits = "document.getElementById('digits').textContent"
    static let status = "document.getElementById('status').textContent"

    /// Records in the page whether it ever said "reconnecting" from now on.
    static let recordLosses = """
        window.lostSeen = false;
        new MutationObserver(() => { if (document.getElementById('status').textContent === 'reconnecting') window.lostSeen = true; })
          .observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true });
        window.sameDocument = true
        """

    /// The page at `url`, once `shown` holds: no alarm through three intervals of
    /// heartbeats (more than the 2¼ a page allows), `lost` once the server falls
    /// silent, `shown` again once it beats again (with the status line cleared when
    /// `clearsStatus`), in the same document, no error.
    static func silenceCycle(_ url: String, shown: String, lost: String, clearsStatus: Bool = true,
                             setSilent: (Bool) throws -> Void) throws {
        let browser = try Browser()
        defer { browser.close() }
        try browser.open(url)
        try browser.wait(shown)
        _ = try browser.eval(recordLosses)
        Thread.sleep(forTimeInterval: 3 * interval)
        #expect(try browser.eval("window.lostSeen") as? Bool == false)

        try setSilent(true)
        #expect(try browser.wait("\(status) === 'reconnecting' && \(lost)", timeout: 20).value as? Bool == true)
        try setSilent(false)
        let resumed = clearsStatus ? "(\(shown)) && \(status) === ''" : shown
        #expect(try browser.wait(resumed, timeout: 20).value as? Bool == true)
        #expect(try browser.eval("window.sameDocument") as? Bool == true)
        #expect(try browser.errors() == [])
    }

    @Test("The overlay keeps its time while heartbeats come, says reconnecting and blanks the time once they stop, and resumes without a reload")
    func overlay() throws {
        let clock = RealClock()
        let server = try TestServer(clock: { clock.now }) { $0.heartbeatInterval = Self.interval }
        defer { server.stop() }
        try server.store(running("tea", seconds: 25 * 60, at: clock.now))
        try Self.silenceCycle("http://\(server.host)/overlay/tea", shown: "/^00:2/.test(\(Self.digits))",
                              lost: "\(Self.digits) === ''", setSilent: server.server.setSilent)
    }

    @Test("The list page keeps its times while heartbeats come, says reconnecting and blanks every time once they stop, and resumes without a reload")
    func listPage() throws {
        let clock = RealClock()
        let server = try TestServer(clock: { clock.now }) { $0.heartbeatInterval = Self.interval }
        defer { server.stop() }
        try server.store(running("tea", seconds: 25 * 60, at: clock.now))
        try server.store(running("egg", seconds: 7 * 60, at: clock.now))
        let times = "Array.from(document.querySelectorAll('#rows td.time')).map(c => c.textContent)"
        try Self.silenceCycle("http://\(server.host)/", shown: "(t => t.length === 2 && /^00:06/.test(t[0]) && /^00:2/.test(t[1]))(\(times))",
                              lost: "\(times).every(t => t === '')", setSilent: server.server.setSilent)
    }

    @Test("A script's view says reconnecting and hides the view once the heartbeats stop, and shows it again when they come back")
    func viewPage() throws {
        let s = try ViewTestServer(heartbeatInterval: Self.interval)
        defer { s.stop() }
        try s.publish(try scriptView { v in
            try v.add(.label, id: "status", fields: [("text", .string("Resend in 5s"))])
        })
        try Self.silenceCycle("http://\(s.server.host)/",
                              shown: "document.querySelector('[data-id=\"status\"]') !== null && !document.getElementById('view').hidden",
                              lost: "document.getElementById('view').hidden", clearsStatus: false, setSilent: s.server.server.setSilent)
    }
}
