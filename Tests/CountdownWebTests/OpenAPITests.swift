import CountdownCore
@testable import CountdownWeb
import Foundation
import NIOHTTP1
import Testing

@Suite("docs/openapi.yaml is the server's whole API, both ways")
struct OpenAPITests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/openapi.yaml")

    /// Method and path of every operation in the file: the keys under `paths:`
    /// (two blanks in) and the methods under them (four blanks in).
    static func operations() throws -> Set<String> {
        let text = try String(contentsOf: file, encoding: .utf8)
        var operations = Set<String>()
        var inPaths = false
        var path: String?
        for line in text.components(separatedBy: "\n") where !line.isEmpty {
            // (A blank line inside a description ends nothing.)
            if !line.hasPrefix(" ") { inPaths = line == "paths:"; path = nil; continue }
            guard inPaths else { continue }
            if line.hasPrefix("  /") { path = String(line.dropFirst(2).dropLast()); continue }
            if let path, line.hasPrefix("    "), !line.hasPrefix("     ") {
                let key = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "post", "put", "delete", "patch"].contains(key) { operations.insert("\(key.uppercased()) \(path)") }
            }
        }
        return operations
    }

    static func names<Routes: APIRoutes>(_ routes: Routes.Type) -> Set<String> {
        Set(routes.allCases.map { "\($0.method.rawValue) \($0.path)" })
    }

    /// What the servers route by: the stored countdowns' table and the script view's.
    static let tables = names(CountdownRoute.self).union(names(ScriptViewRoute.self))

    @Test("The file lists exactly the routes of the servers' tables, the script view's included")
    func sameRoutes() throws {
        let documented = try Self.operations()
        #expect(!documented.isEmpty)
        #expect(documented.subtracting(Self.tables) == [], "documented but not served")
        #expect(Self.tables.subtracting(documented) == [], "served but not documented")
        #expect(documented.contains("POST /api/view/press"))
    }

    @Test("Every documented stored-countdown route answers, neither 404 for a route nor 405")
    func everyCountdownRouteAnswers() throws {
        let clock = TestClock()
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        for route in CountdownRoute.allCases {
            try server.store(running("tea", seconds: 600, at: clock.now))
            let path = route.path.replacingOccurrences(of: "{id}", with: "tea")
            if route == .events {
                let stream = try RawHTTP(port: server.port)
                try stream.send("GET /api/events HTTP/1.1\r\nHost: \(server.host)\r\n\r\n")
                #expect(stream.readUntil("HTTP/1.1 200", timeout: 10).found)
                continue
            }
            let body = route == .append ? #"{"duration": "1m"}"# : route == .start ? #"{"id": "new", "duration": "1m"}"# : route.method == .POST ? "{}" : nil
            let reply = try server.request(route.method.rawValue, path, body: body)
            #expect((200..<300).contains(reply.status), "\(route.method) \(path): \(reply.status) \(reply.body)")
        }
    }

    @Test("Every documented script-view route answers on a server showing a script's view")
    func everyViewRouteAnswers() throws {
        let s = try ViewTestServer()
        defer { s.stop() }
        try s.publish(try scriptView { v in
            try v.add(.button, id: "resend", fields: [("label", .string("Resend code")), ("key", .string("r")), ("enabled", .boolean(true))])
        })
        for route in ScriptViewRoute.allCases {
            if route == .events {
                let stream = try RawHTTP(port: s.server.port)
                try stream.send("GET \(route.path) HTTP/1.1\r\nHost: \(s.server.host)\r\n\r\n")
                #expect(stream.readUntil("HTTP/1.1 200", timeout: 10).found)
                continue
            }
            let reply = try s.server.request(route.method.rawValue, route.path, body: route == .press ? #"{"key": "r"}"# : nil)
            #expect((200..<300).contains(reply.status), "\(route.method) \(route.path): \(reply.status) \(reply.body)")
        }
    }

    /// Every method on every documented path: what the file does not list for the
    /// path is 405 with `Allow` naming exactly what it lists; the other server's
    /// paths are unknown (404).
    @Test("No method the file does not list is answered on a documented path, and each server answers only its own paths")
    func nothingUndocumentedIsAnswered() throws {
        let documented = try Self.operations()
        let countdowns = try TestServer(clock: { TestClock().now })
        defer { countdowns.stop() }
        let views = try ViewTestServer()
        defer { views.stop() }
        let paths = Set(documented.map { String($0.split(separator: " ")[1]) })
        for path in paths {
            let isView = path.hasPrefix("/api/view")
            let server = isView ? views.server : countdowns
            let other = isView ? countdowns : views.server
            let listed = ["GET", "POST"].filter { documented.contains("\($0) \(path)") }
            let concrete = path.replacingOccurrences(of: "{id}", with: "tea")
            for method in ["GET", "POST", "PUT", "DELETE", "PATCH"] where !listed.contains(method) {
                let reply = try server.request(method, concrete)
                #expect(reply.status == 405, "\(method) \(path)")
                #expect(reply.header("Allow") == listed.joined(separator: ", "), "\(method) \(path)")
            }
            for method in listed {
                #expect(try other.request(method, concrete).status == 404, "\(method) \(path) on the other server")
            }
        }
    }
}
