import CountdownCore
@testable import CountdownWeb
import Foundation
import TerminalView
import Testing
import ScriptViewModel

/// A server showing a script's view, with the inbox its clicks go to; stopped by `stop()`.
struct ViewTestServer {
    let server: TestServer
    let inbox: ScriptViewKeyInbox

    init(heartbeatInterval: Double = 45) throws {
        let inbox = try ScriptViewKeyInbox()
        self.inbox = inbox
        let clock = TestClock()
        server = try TestServer(clock: { clock.now }) { configuration in
            configuration.scriptView = ScriptViewChannel(press: { inbox.post($0) })
            configuration.heartbeatInterval = heartbeatInterval
        }
    }

    func stop() { server.stop() }

    /// Publishes `view` as the run loop does, and waits until the server has it.
    func publish(_ view: ViewController) throws {
        server.server.publishView(ScriptViewFrame(ScriptViewState(of: view)))
        _ = try server.server.viewStreamCount()
    }

    func press(_ key: String, authorized: Bool = true) throws -> HTTPReply {
        var body = ""
        CountdownJSON.appendString(key, to: &body)
        return try server.request("POST", "/api/view/press", body: "{\"key\":\(body)}", authorized: authorized)
    }
}

@Suite("The script view's routes: the page, the view, its stream, and clicks as key presses")
struct ScriptViewChannelTests {
    func sms() throws -> ViewController {
        try scriptView { v in
            try v.add(.label, id: "status", fields: [("text", .string("Resend in 5s"))])
            try v.add(.button, id: "resend", fields: [("label", .string("Resend code")), ("key", .string("r")), ("enabled", .boolean(false))])
        }
    }

    @Test("/ is the view's page, its script and style are served, and the stored countdowns are not")
    func pages() throws {
        let s = try ViewTestServer()
        defer { s.stop() }
        let page = try s.server.request("GET", "/", authorized: false)
        #expect(page.status == 200 && page.body.contains("/assets/view.js") && page.body.contains("/assets/view.css"))
        #expect(!page.body.contains("<script>"), "no inline script")
        #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(try s.server.request("GET", "/assets/view.js", authorized: false).status == 200)
        #expect(try s.server.request("GET", "/assets/view.css", authorized: false).status == 200)
        #expect(try s.server.request("GET", "/api/countdowns").status == 404)
        #expect(try s.server.request("POST", "/api/countdowns", body: #"{"id":"tea","duration":"3m"}"#).status == 404)
        #expect(try s.server.request("GET", "/c/tea").status == 404)
    }

    @Test("GET /api/view answers the view as last published")
    func currentView() throws {
        let s = try ViewTestServer()
        defer { s.stop() }
        let empty = try #require(try s.server.request("GET", "/api/view").json as? [String: Any])
        #expect((empty["elements"] as? [Any])?.isEmpty == true)
        try s.publish(try sms())
        let view = try #require(try s.server.request("GET", "/api/view").json as? [String: Any])
        let elements = try #require(view["elements"] as? [[String: Any]])
        #expect(elements.map { $0["id"] as? String } == ["status", "resend"])
    }

    @Test("A click presses a button's key: 202 and the key in the inbox; 401 without the token, 409 while disabled, 404 for a key no button binds, 400 for a bad body")
    func presses() throws {
        let s = try ViewTestServer()
        defer { s.stop() }
        let view = try sms()
        try s.publish(view)
        #expect(try s.press("r").status == 409)
        try view.set("resend", fields: [("enabled", .boolean(true))])
        try s.publish(view)
        #expect(try s.press("r", authorized: false).status == 401)
        #expect(s.inbox.drain() == [])
        let pressed = try s.press("r")
        #expect(pressed.status == 202, "\(pressed.body)")
        #expect(s.inbox.drain() == ["r"])
        for key in ["q", "space", "x", "r\nq", ""] {
            let reply = try s.press(key)
            #expect(reply.status == (key.isEmpty ? 400 : 404), "\(key): \(reply.status) \(reply.body)")
        }
        #expect(try s.server.request("POST", "/api/view/press", body: "not json").status == 400)
        #expect(try s.server.request("POST", "/api/view/press", body: #"{"key": 5}"#).status == 400)
        #expect(s.inbox.drain() == [])
        for _ in 0..<3 { #expect(try s.press("r").status == 202) }
        #expect(s.inbox.drain() == ["r", "r", "r"])
    }

    @Test("A page from another site cannot press: its Origin is refused")
    func foreignOrigin() throws {
        let s = try ViewTestServer()
        defer { s.stop() }
        let view = try sms()
        try view.set("resend", fields: [("enabled", .boolean(true))])
        try s.publish(view)
        let reply = try s.server.request("POST", "/api/view/press", body: #"{"key":"r"}"#, headers: ["Origin: http://evil.example"])
        #expect(reply.status == 403)
        #expect(s.inbox.drain() == [])
    }

    @Test("The view's stream starts with the view and gets each new one")
    func stream() throws {
        let s = try ViewTestServer()
        defer { s.stop() }
        let view = try sms()
        try s.publish(view)
        let stream = try RawHTTP(port: s.server.port)
        try stream.send("GET /api/view/events HTTP/1.1\r\nHost: \(s.server.host)\r\n\r\n")
        let first = stream.readUntil("Resend in 5s", timeout: 10)
        #expect(first.found)
        #expect(first.text.contains("text/event-stream"))
        #expect(try s.server.server.viewStreamCount() == 1)
        try view.set("status", fields: [("text", .string("Resend in 4s"))])
        try s.publish(view)
        let next = stream.readUntil("Resend in 4s", timeout: 10)
        #expect(next.found)
        let events = EventStreamTests.events(next.text)
        #expect(events.count == 2 && events.allSatisfy { $0["event"] as? String == "view" })
    }

    @Test("The inbox hands keys over in order and refuses what cannot be a key")
    func inbox() throws {
        let inbox = try ScriptViewKeyInbox()
        #expect(inbox.post("r") && inbox.post("space") && inbox.post("+"))
        #expect(!inbox.post("a\nq") && !inbox.post("") && !inbox.post(String(repeating: "x", count: 100)))
        #expect(inbox.drain() == ["r", "space", "+"])
        #expect(inbox.drain() == [])
    }
}
