import CountdownCore
@testable import CountdownWeb
import Foundation
import TestPorts
import Testing

/// The pages in a real headless chromium, against a server on the real clock.
@Suite("The serve pages in a real browser", .serialized, .enabled(if: Browser.available, "\(Browser.unavailable ?? "")"))
struct BrowserTests {
    let clock = RealClock()

    func withPage(width: Int = 800, height: Int = 300, _ body: (TestServer, Browser) throws -> Void) throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        let browser = try Browser(width: width, height: height)
        defer { browser.close() }
        try body(server, browser)
        #expect(try browser.errors() == [])
    }

    static let digits = "document.getElementById('digits').textContent"

    @Test("The overlay shows 00:24:59-style digits counting down")
    func overlayCountsDown() throws {
        try withPage { server, browser in
            try server.store(running("tea", seconds: 25 * 60, at: clock.now))
            try browser.open("http://\(server.host)/overlay/tea")
            let first = try #require(try browser.wait("/^00:2[45]:\\d\\d$/.test(\(Self.digits)) && \(Self.digits)").value as? String)
            let later = try #require(try browser.wait("\(Self.digits) !== '\(first)' && \(Self.digits)", timeout: 5).value as? String)
            #expect(later < first)
            #expect(later.hasPrefix("00:24:"))
        }
    }

    @Test("Over HTTPS the overlay loads and counts down (chromium told to accept the test's own certificate)",
          .enabled(if: TestCertificates.unavailable == nil, "\(TestCertificates.unavailable ?? "")"))
    func overlayOverHTTPS() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let tls = try ServerTLS.load(certificate: certificates.certificate, key: certificates.key)
        let clock = self.clock
        let server = try TestServer(clock: { clock.now }) { $0.tls = tls }
        defer { server.stop() }
        let browser = try Browser(arguments: ["--ignore-certificate-errors"])
        defer { browser.close() }
        try server.store(running("tea", seconds: 25 * 60, at: clock.now))
        try browser.open("https://\(server.host)/overlay/tea")
        let first = try #require(try browser.wait("/^00:2[45]:\\d\\d$/.test(\(Self.digits)) && \(Self.digits)").value as? String)
        #expect(try browser.eval("location.protocol") as? String == "https:")
        let later = try #require(try browser.wait("\(Self.digits) !== '\(first)' && \(Self.digits)", timeout: 5).value as? String)
        #expect(later < first)
        #expect(try browser.errors() == [])
    }

    @Test("An append through the API shows on the page within 0.5 s; a paused countdown stops there")
    func appendAndPause() throws {
        try withPage { server, browser in
            try server.store(running("tea", seconds: 25 * 60, at: clock.now))
            try browser.open("http://\(server.host)/c/tea?format=%7Bhh%7D:%7Bmm%7D:%7Bss%7D")
            try browser.wait("\(Self.digits).startsWith('00:24')")
            #expect(try server.request("POST", "/api/countdowns/tea/append", body: #"{"duration": "1m"}"#).status == 200)
            let shown = try browser.wait("\(Self.digits).startsWith('00:25')", timeout: 5)
            #expect(shown.value != nil)
            #expect(shown.seconds < 0.5)
            #expect(try server.request("POST", "/api/countdowns/tea/pause").status == 200)
            try browser.wait("document.getElementById('countdown').className.includes('state-paused')", timeout: 5)
            let paused = try browser.text("digits")
            Thread.sleep(forTimeInterval: 1.2)
            #expect(try browser.text("digits") == paused)
            #expect(try browser.text("status") == "paused")
        }
    }

    @Test("A change written to the store by another process shows once the change feed reports it")
    func storeChangeShows() throws {
        try withPage { server, browser in
            try server.store(running("tea", seconds: 25 * 60, at: clock.now))
            try browser.open("http://\(server.host)/overlay/tea")
            try browser.wait("\(Self.digits).startsWith('00:24')")
            let clock = self.clock
            try server.server.withStore(notify: false) { store in
                _ = try store.modify(id: "tea") { record in _ = record?.append(600 * Time.nanosecondsPerSecond, at: clock.now) }
            }
            server.server.storeChanged(.ids([CountdownID("tea")]))
            #expect(try browser.wait("\(Self.digits).startsWith('00:34')", timeout: 5).seconds < 0.5)
        }
    }

    @Test("The end text appears at the end, and the digits stop at zero")
    func endText() throws {
        try withPage { server, browser in
            try server.store(running("egg", seconds: 1.5, at: clock.now))
            try browser.open("http://\(server.host)/c/egg?done=Fertig%21")
            let status = try browser.wait("document.getElementById('status').textContent === 'Fertig!' && document.getElementById('countdown').className", timeout: 10)
            #expect((status.value as? String)?.contains("state-finished") == true)
            #expect(try browser.text("digits") == "00:00:00.0")
        }
    }

    @Test("The overlay's background is transparent in a screenshot, and its digits are not")
    func transparentOverlay() throws {
        try withPage(width: 640, height: 200) { server, browser in
            try server.store(running("tea", seconds: 25 * 60, at: clock.now))
            try browser.open("http://\(server.host)/overlay/tea?bg=transparent&color=%23ff0000")
            try browser.wait("/^00:2/.test(\(Self.digits))")
            let corners = try browser.pixels([(0, 0), (639, 0), (0, 199), (639, 199), (320, 2)])
            #expect(corners.count == 5)
            for pixel in corners { #expect(pixel.last == 0, "\(pixel)") }
            let row = try browser.pixels((0..<640).map { ($0, 100) })
            #expect(row.contains { $0[3] > 0 && $0[0] > 128 })
            let scroll = try browser.eval("document.documentElement.scrollHeight <= innerHeight && document.documentElement.scrollWidth <= innerWidth")
            #expect(scroll as? Bool == true)
        }
    }

    static let hostileIDs = ["<script>window.pwned=1</script>", "\"><img src=x onerror=window.pwned=1>", "javascript:window.pwned=1",
                             "abc\u{202E}fed", String(repeating: "x", count: 10_000)]

    @Test("Hostile ids are shown as text on every page, never as markup")
    func hostileIDsAreText() throws {
        try withPage { server, browser in
            for id in Self.hostileIDs { try server.store(running(id, seconds: 600, at: clock.now)) }
            try browser.open("http://\(server.host)/")
            try browser.wait("document.querySelectorAll('#rows tr').length === \(Self.hostileIDs.count)")
            let shown = try browser.eval("Array.from(document.querySelectorAll('td.id a')).map(a => a.textContent)") as? [String]
            #expect(shown.map(Set.init) == Set(Self.hostileIDs))
            #expect(try browser.eval("document.querySelectorAll('img').length") as? Int == 0)
            #expect(try browser.eval("document.scripts.length") as? Int == 3)
            #expect(try browser.eval("typeof window.pwned") as? String == "undefined")
            let links = try browser.eval("Array.from(document.querySelectorAll('td.id a')).every(a => a.getAttribute('href').startsWith('/c/'))")
            #expect(links as? Bool == true)
            for id in Self.hostileIDs {
                let encoded = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                try browser.open("http://\(server.host)/c/\(encoded)")
                let title = try browser.wait("document.getElementById('digits').textContent !== '' && document.getElementById('title').textContent", timeout: 10)
                #expect(title.value as? String == id)
                #expect(try browser.eval("document.querySelectorAll('img').length") as? Int == 0)
                #expect(try browser.eval("typeof window.pwned") as? String == "undefined")
            }
        }
    }

    @Test("With the control token the list has controls, and +1m adds a minute; without it, none")
    func controls() throws {
        try withPage { server, browser in
            try server.store(running("tea", seconds: 600, at: clock.now))
            try browser.open("http://\(server.host)/")
            try browser.wait("document.querySelectorAll('#rows tr').length === 1")
            #expect(try browser.eval("document.querySelectorAll('button').length") as? Int == 0)
            // A new document (from the same address only the fragment would change, with no load).
            try browser.open("about:blank")
            try browser.open("http://\(server.host)/#token=\(TestServer.token)")
            try browser.wait("document.querySelectorAll('button').length === 5")
            #expect(try browser.eval("location.hash") as? String == "")
            _ = try browser.eval("document.querySelector('button[data-action=\"+1m\"]').click()")
            var total: Nanoseconds?
            for _ in 0..<100 {
                total = try server.load("tea")?.total
                if total == 660 * Time.nanosecondsPerSecond { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            #expect(total == 660 * Time.nanosecondsPerSecond)
            _ = try browser.eval("document.querySelector('button[data-action=\"pause\"]').click()")
            try browser.wait("document.querySelector('td.state').textContent === 'paused'", timeout: 5)
        }
    }

    @Test("A page that loses the server says reconnecting and shows no time, then resumes without a reload")
    func reconnecting() throws {
        let clock = self.clock
        // A port below the ephemeral range: while the page waits, no other test's
        // connection can be given it, and the second server binds it again.
        let port = try LoopbackPort.free()
        let first = try TestServer(clock: { clock.now }) { $0.port = port }
        let browser = try Browser()
        defer { browser.close() }
        try first.store(running("tea", seconds: 25 * 60, at: clock.now))
        try browser.open("http://127.0.0.1:\(port)/overlay/tea")
        try browser.wait("/^00:2/.test(\(Self.digits))")
        _ = try browser.eval("window.sameDocument = true")
        first.stop()
        let lost = try browser.wait("document.getElementById('status').textContent === 'reconnecting' && \(Self.digits) === ''", timeout: 10)
        #expect(lost.value != nil)
        let second = try TestServer(clock: { clock.now }) { $0.port = port }
        defer { second.stop() }
        try second.store(running("tea", seconds: 10 * 60, at: clock.now))
        #expect(try browser.wait("/^00:0[89]/.test(\(Self.digits))", timeout: 15).value != nil)
        #expect(try browser.eval("window.sameDocument") as? Bool == true)
    }

    @Test("format.js renders every pattern as FormatPattern does, errors included")
    func formatterAgreesWithSwift() throws {
        try withPage { server, browser in
            try browser.open("http://\(server.host)/overlay/none")
            let patterns = ["{hh}:{mm}:{ss}", "{hh}:{mm}:{ss}.{t}", "{d}d {h}h {m}m {s}s", "{H}:{mm}", "{M}m{ss}", "{S}.{t}s",
                            "{{literal}} {mm}", "ünï {ss} 名前", "{x}", "{mm", "mm}", "}", "{", "a{{b}}c", ""]
            let values: [Int64] = [0, 1, 99, 100, 999, 1000, 59_999, 60_000, 3_599_900, 3_600_000, 86_399_999, 86_400_000,
                                   90_061_100, 1_499_000, 362_439_999_900, -5000]
            let script = """
                JSON.stringify(\(String(decoding: try JSONSerialization.data(withJSONObject: patterns), as: UTF8.self)).map(p => {
                  try { const f = CdFormat.compile(p); return \(values).map(v => f(v)); }
                  catch (e) { return "error: " + e.message; }
                }))
                """
            let text = try #require(try browser.eval(script) as? String)
            let results = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any])
            for (pattern, result) in zip(patterns, results) {
                do {
                    let swift = try FormatPattern(pattern)
                    #expect(result as? [String] == values.map { swift.render($0 * 1_000_000) }, "\(pattern)")
                } catch {
                    #expect(result as? String == "error: \(error)", "\(pattern)")
                }
            }
        }
    }
}
