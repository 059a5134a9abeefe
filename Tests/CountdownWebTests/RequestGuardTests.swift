import CountdownCore
@testable import CountdownWeb
import Foundation
import NIOHTTP1
import Testing

@Suite("Who may ask serve what: the token, the Host and Origin checks")
struct RequestGuardTests {
    let clock = TestClock()

    @Test("Control without the token, or with a wrong one, is 401 and changes nothing")
    func controlNeedsTheToken() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        try server.store(running("tea", seconds: 60, at: clock.now))
        let missing = try server.request("POST", "/api/countdowns/tea/pause", authorized: false)
        #expect(missing.status == 401)
        #expect(missing.header("WWW-Authenticate") == "Bearer")
        let wrong = try server.request("POST", "/api/countdowns/tea/cancel", authorized: false, headers: ["Authorization: Bearer test-token-0123456788"])
        #expect(wrong.status == 401)
        let started = try server.request("POST", "/api/countdowns", body: #"{"id": "x", "duration": 5}"#, authorized: false)
        #expect(started.status == 401)
        #expect(try server.load("tea")?.state == .running)
        #expect(try server.load("x") == nil)
    }

    @Test("A Host header that names another site (DNS rebinding) is refused with 403")
    func hostMustBeThisServer() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        func get(host: String?) throws -> Int {
            var text = "GET /api/countdowns HTTP/1.1\r\nConnection: close\r\n"
            if let host { text += "Host: \(host)\r\n" }
            return try RawHTTP.exchange(port: server.port, Array((text + "\r\n").utf8)).status
        }
        #expect(try get(host: "127.0.0.1:\(server.port)") == 200)
        #expect(try get(host: "localhost:\(server.port)") == 200)
        #expect(try get(host: "localhost") == 200)
        #expect(try get(host: "evil.example:\(server.port)") == 403)
        #expect(try get(host: "127.0.0.1:1") == 403)
        #expect(try get(host: "127.0.0.1.evil.example") == 403)
        #expect(try get(host: nil) != 200)
    }

    @Test("An Origin other than this server's is refused with 403, a control request included")
    func originMustBeThisServer() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        try server.store(running("tea", seconds: 60, at: clock.now))
        let own = try server.request("POST", "/api/countdowns/tea/pause", headers: ["Origin: http://127.0.0.1:\(server.port)"])
        #expect(own.status == 200)
        let other = try server.request("POST", "/api/countdowns/tea/resume", headers: ["Origin: http://evil.example"])
        #expect(other.status == 403)
        #expect(try server.request("GET", "/api/countdowns", authorized: false, headers: ["Origin: null"]).status == 403)
        #expect(try server.request("GET", "/api/countdowns", authorized: false, headers: ["Origin: https://127.0.0.1:\(server.port)"]).status == 403)
        #expect(try server.load("tea")?.state == .paused)
    }

    @Test("Off loopback, reads need the token unless public reads are configured")
    func readsOffLoopback() {
        var headers = HTTPHeaders()
        let closed = RequestGuard(configuration: ServerConfiguration(host: "0.0.0.0", controlToken: "secret"), port: 8765)
        #expect(closed.checkRead(headers, query: [:])?.status == .unauthorized)
        #expect(closed.checkRead(headers, query: ["token": "secret"]) == nil)
        #expect(closed.checkRead(headers, query: ["token": "secreT"])?.status == .unauthorized)
        headers.add(name: "Authorization", value: "Bearer secret")
        #expect(closed.checkRead(headers, query: [:]) == nil)
        let open = RequestGuard(configuration: ServerConfiguration(host: "0.0.0.0", controlToken: "secret", publicRead: true), port: 8765)
        #expect(open.checkRead(HTTPHeaders(), query: [:]) == nil)
        #expect(open.checkControl(HTTPHeaders())?.status == .unauthorized)
        let loopback = RequestGuard(configuration: ServerConfiguration(controlToken: "secret"), port: 8765)
        #expect(loopback.checkRead(HTTPHeaders(), query: [:]) == nil)
    }

    @Test("A configured name is accepted as Host; an IPv6 listen address in brackets")
    func configuredHosts() {
        let guardian = RequestGuard(configuration: ServerConfiguration(host: "::1", controlToken: "t", allowedHosts: ["Studio.local"]), port: 80)
        func allowed(_ host: String) -> Bool {
            var headers = HTTPHeaders()
            headers.add(name: "Host", value: host)
            return guardian.checkOrigin(headers) == nil
        }
        #expect(allowed("studio.local:80"))
        #expect(allowed("[::1]:80"))
        #expect(allowed("[::1]"))
        #expect(!allowed("[::2]:80"))
        #expect(!allowed("studio.local:81"))
    }

    @Test("The token is compared whole: a prefix, a longer text or an empty token never matches")
    func tokenComparison() {
        #expect(RequestGuard.constantTimeEqual("abc", "abc"))
        #expect(!RequestGuard.constantTimeEqual("ab", "abc"))
        #expect(!RequestGuard.constantTimeEqual("abcd", "abc"))
        #expect(!RequestGuard.constantTimeEqual("", ""))
    }
}
