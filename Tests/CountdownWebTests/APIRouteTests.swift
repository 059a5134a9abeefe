import CountdownCore
@testable import CountdownWeb
import Foundation
import Testing

@Suite("The HTTP API of serve")
struct APIRouteTests {
    let clock = TestClock()

    func withServer(_ body: (TestServer) throws -> Void) throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        try body(server)
    }

    @Test("GET /api/countdowns is list --json's text, from the same encoder")
    func listHasTheListingsShape() throws {
        try withServer { server in
            try server.store(running("tea", seconds: 180, at: clock.now))
            try server.store(running("<script>alert(1)</script>\u{202E}", seconds: 60, at: clock.now))
            clock.advance(seconds: 30)
            let reply = try server.request("GET", "/api/countdowns", authorized: false)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
            var expected = "[\n"
            let now = clock.now
            let records = try server.server.withStore { try $0.list() }
            for (i, record) in records.enumerated() {
                if i > 0 { expected += ",\n" }
                CountdownJSON.appendRecord(record, at: now, to: &expected)
            }
            expected += "\n]\n"
            #expect(reply.body == expected)
            let list = try #require(reply.json as? [[String: Any]])
            #expect(list.count == 2)
            #expect(Set(list[1].keys) == ["actions", "deadline", "every", "id", "kind", "overtime", "remaining", "state", "title", "total"])
            #expect(list[1]["id"] as? String == "tea")
            #expect(list[1]["remaining"] as? Double == 150)
            #expect(list[1]["state"] as? String == "running")
            // The bidi override is escaped, never raw.
            #expect(reply.body.contains("\\u202e") || reply.body.contains("\\u202E"))
        }
    }

    @Test("An empty store lists as [] and an unknown id is 404 with the command line's message")
    func emptyAndUnknown() throws {
        try withServer { server in
            #expect(try server.request("GET", "/api/countdowns", authorized: false).body == "[]\n")
            let reply = try server.request("GET", "/api/countdowns/nope", authorized: false)
            #expect(reply.status == 404)
            #expect((reply.json as? [String: String])?["error"] == "no stored countdown has the id 'nope'")
        }
    }

    @Test("GET /api/countdowns/ID percent-decodes the id, a slash included")
    func showDecodesTheID() throws {
        try withServer { server in
            try server.store(running("a/b c", seconds: 60, at: clock.now))
            let reply = try server.request("GET", "/api/countdowns/a%2Fb%20c", authorized: false)
            #expect(reply.status == 200)
            #expect((reply.json as? [String: Any])?["id"] as? String == "a/b c")
            #expect(try server.request("GET", "/api/countdowns/%zz", authorized: false).status == 400)
            #expect(try server.request("GET", "/api/countdowns/%ff", authorized: false).status == 400)
        }
    }

    @Test("POST /api/countdowns starts a countdown: 201 with its record, 409 while the id runs, 400 with the grammar's message")
    func start() throws {
        try withServer { server in
            let created = try server.request("POST", "/api/countdowns", body: #"{"id": "tea", "duration": "3m", "every": 0.5}"#)
            #expect(created.status == 201)
            let record = try #require(try server.load("tea"))
            #expect(record.total == 180 * Time.nanosecondsPerSecond)
            #expect(record.every == Time.nanosecondsPerSecond / 2)
            #expect(record.state == .running && record.kind == .duration)
            let again = try server.request("POST", "/api/countdowns", body: #"{"id": "tea", "duration": 60}"#)
            #expect(again.status == 409)
            #expect((again.json as? [String: String])?["error"]?.contains("already stored (running)") == true)
            let bad = try server.request("POST", "/api/countdowns", body: #"{"id": "x", "duration": "5x"}"#)
            #expect(bad.status == 400)
            #expect((bad.json as? [String: String])?["error"] == "\"duration\" must be a duration from 0 s to 2305843009 seconds (about 73 years) (such as 90, 1.5, 25m, 1h30m), got \"5x\"")
            #expect(try server.request("POST", "/api/countdowns", body: #"{"id": "x", "duration": "1m", "colour": 1}"#).status == 400)
            #expect(try server.request("POST", "/api/countdowns", body: #"{"id": "x"}"#).status == 400)
            #expect(try server.request("POST", "/api/countdowns", body: #"{"id": "x", "duration": "1m", "overtime": 1}"#).status == 400)
            #expect(try server.request("POST", "/api/countdowns", body: "not json").status == 400)
            #expect(try server.request("POST", "/api/countdowns", body: #"{"id": "x", "duration": "1m", "every": "0.01"}"#).status == 400)
        }
    }

    @Test("POST /api/countdowns keeps a title and action names, with the command line's limits (400 past them)")
    func startWithTitleAndActions() throws {
        try withServer { server in
            let created = try server.request("POST", "/api/countdowns", body: #"{"id": "exam", "duration": "45m", "title": "Maths <b>", "actions": ["notify", "log"]}"#)
            #expect(created.status == 201)
            let record = try #require(try server.load("exam"))
            #expect(record.title == "Maths <b>" && record.actions == ["notify", "log"])
            let long = String(repeating: "x", count: 257)
            let refusals = [
                #"{"id": "a", "duration": "1m", "title": "two\nlines"}"#, #"{"id": "a", "duration": "1m", "title": "\#(long)"}"#,
                #"{"id": "a", "duration": "1m", "actions": ["rm -rf /"]}"#, #"{"id": "a", "duration": "1m", "actions": "notify"}"#,
                #"{"id": "a", "duration": "1m", "actions": ["log", "log"]}"#, #"{"id": "a", "duration": "1m", "overtime": true, "actions": ["log"]}"#,
            ]
            for body in refusals {
                let refused = try server.request("POST", "/api/countdowns", body: body)
                #expect(refused.status == 400, "\(body)")
            }
            #expect(try server.load("a") == nil)
        }
    }

    @Test("A deadline starts a wall-clock countdown; one that has passed is refused")
    func startAtADeadline() throws {
        try withServer { server in
            let iso = UTCTimestamp.iso8601(clock.now.wall + 3600 * Time.nanosecondsPerSecond)
            let created = try server.request("POST", "/api/countdowns", body: #"{"id": "exam", "deadline": "\#(iso)", "overtime": true}"#)
            #expect(created.status == 201)
            let record = try #require(try server.load("exam"))
            #expect(record.kind == .wall && record.overtime)
            let past = UTCTimestamp.iso8601(clock.now.wall - Time.nanosecondsPerSecond)
            let refused = try server.request("POST", "/api/countdowns", body: #"{"id": "late", "deadline": "\#(past)"}"#)
            #expect(refused.status == 400)
        }
    }

    @Test("append, pause, resume and cancel change the record as the commands do, with their messages")
    func changes() throws {
        try withServer { server in
            try server.store(running("tea", seconds: 180, at: clock.now))
            let appended = try server.request("POST", "/api/countdowns/tea/append", body: #"{"duration": "1m"}"#)
            #expect(appended.status == 200)
            #expect((appended.json as? [String: Any])?["remaining"] as? Double == 240)
            #expect(try server.request("POST", "/api/countdowns/tea/append", body: #"{"duration": -30}"#).status == 200)
            #expect(try server.load("tea")?.total == 210 * Time.nanosecondsPerSecond)
            #expect(try server.request("POST", "/api/countdowns/tea/pause").status == 200)
            #expect(try server.load("tea")?.state == .paused)
            let twice = try server.request("POST", "/api/countdowns/tea/pause")
            #expect(twice.status == 200)
            #expect((twice.json as? [String: Any])?["state"] as? String == "paused")
            clock.advance(seconds: 100)
            #expect(try server.request("POST", "/api/countdowns/tea/resume").status == 200)
            #expect(try server.load("tea")?.remaining(at: clock.now) == 210 * Time.nanosecondsPerSecond)
            let zero = try server.request("POST", "/api/countdowns/tea/append", body: #"{"duration": "0"}"#)
            #expect(zero.status == 400)
            let huge = try server.request("POST", "/api/countdowns/tea/append", body: #"{"duration": "2305843009"}"#)
            #expect(huge.status == 400)
            #expect((huge.json as? [String: String])?["error"]?.contains("it was left as it is") == true)
            let cancelled = try server.request("POST", "/api/countdowns/tea/cancel")
            #expect(cancelled.status == 200)
            #expect(try server.load("tea") == nil)
            #expect(try server.request("POST", "/api/countdowns/tea/cancel").status == 404)
            #expect(try server.request("POST", "/api/countdowns/tea/pause").status == 404)
            #expect(try server.request("POST", "/api/countdowns/tea/explode").status == 404)
        }
    }

    @Test("Changing a countdown that has finished is a conflict (409)")
    func finishedIsAConflict() throws {
        try withServer { server in
            try server.store(running("egg", seconds: 5, at: clock.now))
            clock.advance(seconds: 6)
            let reply = try server.request("POST", "/api/countdowns/egg/append", body: #"{"duration": "1m"}"#)
            #expect(reply.status == 409)
            #expect((reply.json as? [String: String])?["error"] == "the stored countdown 'egg' has finished: nothing to append to")
            #expect(try server.request("POST", "/api/countdowns/egg/pause").status == 409)
            // A finished id may be started again.
            #expect(try server.request("POST", "/api/countdowns", body: #"{"id": "egg", "duration": "5"}"#).status == 201)
        }
    }

    @Test("Other methods are 405 with Allow naming the path's own methods; unknown paths 404")
    func methodsAndPaths() throws {
        try withServer { server in
            let reply = try server.request("DELETE", "/api/countdowns/tea")
            #expect(reply.status == 405)
            #expect(reply.header("Allow") == "GET")
            #expect(try server.request("PUT", "/api/countdowns").header("Allow") == "GET, POST")
            #expect(try server.request("GET", "/api/countdowns/tea/append").header("Allow") == "POST")
            #expect(try server.request("POST", "/", authorized: false).header("Allow") == "GET")
            #expect(try server.request("POST", "/api/countdowns/tea/explode").status == 404)
            #expect(try server.request("GET", "/nothing", authorized: false).status == 404)
            #expect(try server.request("GET", "/api/nothing", authorized: false).status == 404)
            #expect(try server.request("GET", "/assets/secret.txt", authorized: false).status == 404)
        }
    }

    @Test("Pages and assets are served with their types and the security headers")
    func pages() throws {
        try withServer { server in
            for (path, type) in [("/", "text/html"), ("/c/tea", "text/html"), ("/overlay/tea", "text/html"),
                                 ("/assets/live.js", "text/javascript"), ("/assets/style.css", "text/css")] {
                let reply = try server.request("GET", path, authorized: false)
                #expect(reply.status == 200, "\(path)")
                #expect(reply.header("Content-Type")?.hasPrefix(type) == true, "\(path)")
                #expect(reply.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
                #expect(reply.header("Content-Security-Policy")?.contains("unsafe-inline") == false)
                #expect(reply.header("X-Content-Type-Options") == "nosniff")
                #expect(reply.header("Access-Control-Allow-Origin") == nil)
            }
        }
    }

    @Test("The pages hold no inline script, inline handler or style attribute, which the policy would block")
    func pagesHaveNothingInline() throws {
        for page in [StaticPages.index, StaticPages.countdown, StaticPages.overlay, StaticPages.view] {
            let html = String(decoding: page.bytes, as: UTF8.self)
            #expect(!html.contains("<script>"))
            #expect(html.range(of: #"<script(?![^>]*src=)"#, options: .regularExpression) == nil)
            #expect(html.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil)
            #expect(!html.contains("style="))
        }
        for name in ["live.js", "index.js", "countdown.js", "format.js", "view.js"] {
            let js = String(decoding: try #require(StaticPages.assets[name]).bytes, as: UTF8.self)
            #expect(!js.contains("innerHTML") && !js.contains("outerHTML") && !js.contains("insertAdjacentHTML") && !js.contains("document.write"), "\(name)")
            #expect(!js.contains("eval("), "\(name)")
        }
    }
}
