import Foundation
import Testing

/// `cdscript run SCRIPT --serve`: the real binary, its view in a real headless
/// chromium, on the real clock (short cooldowns, so the tests take seconds).
/// Standard output is no terminal here, so the browser is the only view.
@Suite("A script's view in a real browser (run --serve)", .serialized,
       .enabled(if: Browser.available, "\(Browser.unavailable ?? "")"),
       .enabled(if: ScriptRunProcess.unavailable == nil, "\(ScriptRunProcess.unavailable ?? "")"))
struct ScriptViewBrowserTests {
    static func element(_ id: String) -> String { "document.querySelector('[data-id=\"\(id)\"]')" }
    static let resend = element("resend")
    static let status = element("status")

    func withRun(_ arguments: [String], _ body: (ScriptRunProcess, String, Browser) throws -> Void) throws {
        // The browser first: its start is slow on a busy machine, and the script's time runs from its own start.
        let browser = try Browser(width: 800, height: 400)
        defer { browser.close() }
        _ = try browser.eval("1")
        let run = try ScriptRunProcess(arguments)
        defer { run.stop() }
        let url = try #require(run.pageURL(), "no address said: \(run.stdout) \(run.stderr)")
        let token = try #require(run.token)
        try browser.open(url + "#token=" + token)
        try body(run, url, browser)
        #expect(try browser.errors() == [])
    }

    @Test("sms_code.lua's resend button is disabled, enables at the end of its cooldown, and a click disables it again")
    func smsResend() throws {
        try withRun(["examples/sms_code.lua", "3"]) { run, _, browser in
            let first = try browser.wait("\(Self.resend) && \(Self.resend).disabled === true && \(Self.status).textContent")
            #expect((first.value as? String)?.hasPrefix("Resend in ") == true, "\(String(describing: first.value))")
            #expect(try browser.eval("\(Self.resend).querySelector('.caption').textContent") as? String == "Resend code")
            #expect(try browser.eval("document.title") as? String == "Verification code")
            let enabled = try browser.wait("\(Self.resend).disabled === false && \(Self.status).textContent", timeout: 15)
            #expect(enabled.value as? String == "Didn't get the code?")
            _ = try browser.eval("\(Self.resend).click()")
            let again = try browser.wait("\(Self.resend).disabled === true && \(Self.status).textContent", timeout: 10)
            #expect((again.value as? String)?.hasPrefix("Resend in ") == true, "\(String(describing: again.value))")
            #expect(again.seconds < 5, "the click reached the script and came back within \(again.seconds) s")
            // The browser is the only view: nothing but the address went to stdout.
            #expect(!run.stdout.contains("status:") && !run.stdout.contains("resend:"), "\(run.stdout)")
        }
    }

    @Test("flash_sale.lua's big digits tick in the page, its bar fills, and the end shows")
    func flashSaleTicks() throws {
        try withRun(["examples/flash_sale.lua"]) { _, _, browser in
            let clock = Self.element("clock")
            let pattern = "/^00:00:0[0-4]\\.\\d$/.test(\(clock).textContent)"
            let first = try #require(try browser.wait("\(clock) && \(pattern) && \(clock).textContent").value as? String)
            let later = try #require(try browser.wait("\(pattern) && \(clock).textContent !== '\(first)' && \(clock).textContent", timeout: 5).value as? String)
            #expect(later < first)
            #expect(try browser.eval("\(clock).className") as? String == "big")
            let width = try browser.wait("parseFloat(\(Self.element("elapsed")).querySelector('.fill').style.width) > 0 && \(Self.element("elapsed")).querySelector('.fill').style.width")
            #expect(width.value != nil)
            #expect(try browser.eval("\(Self.element("heading")).className") as? String == "label s-bold c-yellow")
            let end = try browser.wait("\(Self.element("heading")).textContent === 'The sale has ended.' && \(clock).textContent", timeout: 15)
            #expect(end.value as? String == "00:00:00.0")
            #expect(try browser.eval("\(Self.element("heading")).className") as? String == "label s-bold c-red")
        }
    }

    @Test("A page whose run has ended says reconnecting and hides the view")
    func reconnecting() throws {
        try withRun(["examples/sms_code.lua", "60"]) { run, _, browser in
            try browser.wait("\(Self.resend) && \(Self.resend).disabled === true")
            run.stop()
            let lost = try browser.wait("document.getElementById('status').textContent === 'reconnecting' && document.getElementById('view').hidden", timeout: 10)
            #expect(lost.value as? Bool == true)
        }
    }

    @Test("Without the token the page shows the view read-only, and a click presses nothing")
    func withoutToken() throws {
        let run = try ScriptRunProcess(["examples/sms_code.lua", "1"])
        defer { run.stop() }
        let url = try #require(run.pageURL(), "\(run.stderr)")
        let browser = try Browser()
        defer { browser.close() }
        try browser.open(url)
        try browser.wait("\(Self.resend) && \(Self.resend).disabled === false", timeout: 15)
        #expect(try browser.text("status")?.hasPrefix("read only") == true)
        _ = try browser.eval("\(Self.resend).click()")
        let refused = try browser.wait("document.getElementById('status').textContent.includes('control token')", timeout: 5)
        #expect(refused.value != nil)
        #expect(try browser.eval("\(Self.resend).disabled") as? Bool == false, "the script saw no press")
    }

    static let hostile = ["<script>window.pwned=1</script>", "\"><img src=x onerror=window.pwned=1>", "javascript:window.pwned=1", "abc\u{202E}fed"]

    @Test("Hostile ids, texts, labels and a title are shown as text, never as markup")
    func hostileTextIsText() throws {
        try withRun(["Tests/Fixtures/script_view/hostile_view.lua"]) { _, _, browser in
            try browser.wait("document.querySelectorAll('#view .label').length === 4 && \(Self.element("big")) !== null")
            let ids = try browser.eval("Array.from(document.querySelectorAll('#view .label')).map(e => e.dataset.id)") as? [String]
            let texts = try browser.eval("Array.from(document.querySelectorAll('#view .label')).map(e => e.textContent)") as? [String]
            let labels = try browser.eval("Array.from(document.querySelectorAll('#view .caption')).map(e => e.textContent)") as? [String]
            #expect(ids == Self.hostile)
            #expect(texts == Self.hostile)
            #expect(labels == Self.hostile)
            #expect(try browser.eval("\(Self.element("big")).textContent") as? String == Self.hostile[1])
            #expect(try browser.eval("document.title") as? String == Self.hostile[0])
            #expect(try browser.eval("document.querySelectorAll('img').length") as? Int == 0)
            #expect(try browser.eval("document.scripts.length") as? Int == 2)
            #expect(try browser.eval("typeof window.pwned") as? String == "undefined")
        }
    }

    @Test("A view the script closes (its button's on_press) ends the run, and the page says it was closed, its buttons disabled")
    func closedView() throws {
        try withRun(["Tests/Fixtures/script_view/closes_view.lua"]) { run, _, browser in
            try browser.wait("\(Self.element("ok")) && \(Self.element("ok")).disabled === false")
            _ = try browser.eval("\(Self.element("ok")).click()")
            let said = try browser.wait("document.getElementById('status').textContent === \"the script's view was closed\"", timeout: 15)
            #expect(said.value != nil)
            #expect(try browser.eval("\(Self.element("ok")).disabled") as? Bool == true)
            #expect(try browser.eval("document.getElementById('view').hidden") as? Bool == false)
            let deadline = Date().addingTimeInterval(10)
            while run.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(!run.process.isRunning, "the run ended with its view")
            #expect(run.process.isRunning || run.process.terminationStatus == 0)
        }
    }
}
