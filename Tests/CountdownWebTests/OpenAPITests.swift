import CountdownCore
@testable import CountdownWeb
import Foundation
import Testing

@Suite("docs/openapi.yaml is the server's API")
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
        for line in text.components(separatedBy: "\n") {
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

    @Test("The file lists exactly the server's routes")
    func sameRoutes() throws {
        let documented = try Self.operations()
        #expect(!documented.isEmpty)
        #expect(documented == Set(ServerCore.apiRoutes.map { "\($0.method) \($0.path)" }))
    }

    @Test("Every documented route answers, neither 404 for a route nor 405")
    func everyRouteAnswers() throws {
        let clock = TestClock()
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        for route in ServerCore.apiRoutes {
            try server.store(running("tea", seconds: 600, at: clock.now))
            let path = route.path.replacingOccurrences(of: "{id}", with: "tea")
            if path == "/api/events" {
                let stream = try RawHTTP(port: server.port)
                try stream.send("GET /api/events HTTP/1.1\r\nHost: \(server.host)\r\n\r\n")
                #expect(stream.readUntil("HTTP/1.1 200", timeout: 10).found)
                continue
            }
            let body = route.method == "POST" ? (path.hasSuffix("append") ? #"{"duration": "1m"}"# : path.hasSuffix("countdowns") ? #"{"id": "new", "duration": "1m"}"# : "{}") : nil
            let reply = try server.request(route.method, path, body: body)
            #expect((200..<300).contains(reply.status), "\(route.method) \(path): \(reply.status) \(reply.body)")
        }
    }
}
