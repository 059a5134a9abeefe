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

    @Test("The overlay keeps its time while heartbeats come, says reconnecting and blanks the time once they stop, and resumes without a reload")
    func overlay() throws {
        let clock = RealClock()
        let server = try TestServer(clock: { clock.now }) { $0.heartbeatInterval = Self.interval }
        defer { server.stop() }
        let browser = try Browser()
        defer { browser.close() }
        try server.store(running("tea", seconds: 25 * 60, at: clock.now))
        try browser.open("http://\(server.host)/overlay/tea")
        try browser.wait("/^00:2/.test(\(Self.digits))")
        _ = try browser.eval(Self.recordLosses)
        // Three intervals of heartbeats: more than the silence a page allows (2¼), and no alarm.
        Thread.sleep(forTimeInterval: 3 * Self.interval)
        #expect(try browser.eval("window.lostSeen") as? Bool == false)

        try server.server.setSilent(true)
        let lost = try browser.wait("\(Self.status) === 'reconnecting' && \(Self.digits) === ''", timeout: 20)
        #expect(lost.value as? Bool == true)
        try server.server.setSilent(false)
        #expect(try browser.wait("/^00:2/.test(\(Self.digits)) && \(Self.status) === ''", timeout: 20).value != nil)
        #expect(try browser.eval("window.sameDocument") as? Bool == true)
        #expect(try browser.errors() == [])
    }

    @Test("The list page keeps its times while heartbeats come, says reconnecting and blanks every time once they stop, and resumes without a reload")
    func listPage() throws {
        let clock = RealClock()
        let server = try TestServer(clock: { clock.now }) { $0.heartbeatInterval = Self.interval }
        defer { server.stop() }
        let browser = try Browser()
        defer { browser.close() }
        try server.store(running("tea", seconds: 25 * 60, at: clock.now))
        try server.store(running("egg", seconds: 7 * 60, at: clock.now))
        try browser.open("http://\(server.host)/")
        let times = "Array.from(document.querySelectorAll('#rows td.time')).map(c => c.textContent)"
        let bothShown = "(t => t.length === 2 && /^00:06/.test(t[0]) && /^00:2/.test(t[1]))(\(times))"
        try browser.wait(bothShown)
        _ = try browser.eval(Self.recordLosses)
        Thread.sleep(forTimeInterval: 3 * Self.interval)
        #expect(try browser.eval("window.lostSeen") as? Bool == false)

        try server.server.setSilent(true)
        let lost = try browser.wait("\(Self.status) === 'reconnecting' && \(times).every(t => t === '')", timeout: 20)
        #expect(lost.value as? Bool == true)
        try server.server.setSilent(false)
        #expect(try browser.wait("\(bothShown) && \(Self.status) === ''", timeout: 20).value as? Bool == true)
        #expect(try browser.eval("window.sameDocument") as? Bool == true)
        #expect(try browser.errors() == [])
    }

    @Test("A script's view says reconnecting and hides the view once the heartbeats stop, and shows it again when they come back")
    func viewPage() throws {
        let s = try ViewTestServer(heartbeatInterval: Self.interval)
        defer { s.stop() }
        try s.publish(try scriptView { v in
            try v.add(.label, id: "status", fields: [("text", .string("Resend in 5s"))])
        })
        let browser = try Browser()
        defer { browser.close() }
        try browser.open("http://\(s.server.host)/")
        let shown = "document.querySelector('[data-id=\"status\"]') !== null && !document.getElementById('view').hidden"
        try browser.wait(shown)
        _ = try browser.eval(Self.recordLosses)
        Thread.sleep(forTimeInterval: 3 * Self.interval)
        #expect(try browser.eval("window.lostSeen") as? Bool == false)

        try s.server.server.setSilent(true)
        let lost = try browser.wait("\(Self.status) === 'reconnecting' && document.getElementById('view').hidden", timeout: 20)
        #expect(lost.value as? Bool == true)
        try s.server.server.setSilent(false)
        #expect(try browser.wait(shown, timeout: 20).value as? Bool == true)
        #expect(try browser.eval("window.sameDocument") as? Bool == true)
        #expect(try browser.errors() == [])
    }
}
