import CountdownCore
@testable import CountdownWeb
import Foundation
import Testing

@Suite("serve over HTTPS: the certificate and key checked at start, then the API and the stream over TLS",
       .enabled(if: TestCertificates.unavailable == nil, "\(TestCertificates.unavailable ?? "")"))
struct TLSTests {
    let clock = TestClock()

    func server(_ certificates: TestCertificates, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        let clock = self.clock
        let tls = try ServerTLS.load(certificate: certificates.certificate, key: certificates.key)
        return try TestServer(clock: { clock.now }) { configuration in
            configuration.tls = tls
            configure(&configuration)
        }
    }

    @Test("A client that trusts the certificate gets the API's answers over HTTPS")
    func apiOverTLS() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let server = try server(certificates)
        defer { server.stop() }
        try server.store(running("tea", seconds: 180, at: clock.now))
        let client = try TLSClient(port: server.port, trusting: certificates.certificate)
        defer { client.close() }
        try client.send("GET /api/countdowns/tea HTTP/1.1\r\nHost: \(server.host)\r\nConnection: close\r\n\r\n")
        let reply = client.readAll()
        #expect(reply.hasPrefix("HTTP/1.1 200 OK"), "\(reply.prefix(200))")
        #expect(reply.contains("\"id\" : \"tea\""))
    }

    @Test("Plain HTTP sent to the HTTPS port gets no HTTP answer, and the connection is closed")
    func plainHTTPIsRefused() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let server = try server(certificates)
        defer { server.stop() }
        let plain = try RawHTTP(port: server.port)
        try plain.send("GET /api/countdowns HTTP/1.1\r\nHost: \(server.host)\r\n\r\n")
        let answer = String(decoding: plain.readAll(timeout: 10), as: UTF8.self)
        #expect(!answer.contains("HTTP/1.1"))
        #expect(!answer.contains("[]"))
        // And the server goes on serving over TLS.
        let client = try TLSClient(port: server.port, trusting: certificates.certificate)
        defer { client.close() }
        try client.send("GET /api/countdowns HTTP/1.1\r\nHost: \(server.host)\r\nConnection: close\r\n\r\n")
        #expect(client.readAll().hasPrefix("HTTP/1.1 200 OK"))
    }

    @Test("The event stream works over HTTPS: the snapshot, then a change as it is made")
    func eventStreamOverTLS() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let server = try server(certificates)
        defer { server.stop() }
        try server.store(running("tea", seconds: 180, at: clock.now))
        let stream = try TLSClient(port: server.port, trusting: certificates.certificate)
        defer { stream.close() }
        try stream.send("GET /api/events HTTP/1.1\r\nHost: \(server.host)\r\n\r\n")
        #expect(stream.readUntil("\"snapshot\"", timeout: 10).found)
        let control = try TLSClient(port: server.port, trusting: certificates.certificate)
        defer { control.close() }
        let body = #"{"duration": "1m"}"#
        try control.send("POST /api/countdowns/tea/append HTTP/1.1\r\nHost: \(server.host)\r\nAuthorization: Bearer \(TestServer.token)\r\n"
                         + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        #expect(control.readAll().hasPrefix("HTTP/1.1 200 OK"))
        let pushed = stream.readUntil("\"remaining\" : 240", timeout: 10)
        #expect(pushed.found, "\(pushed.text.suffix(300))")
        #expect(pushed.text.contains("\"event\":\"append\""))
    }

    /// A new connection's answer to GET `path`, trusting only `certificate`; nil when the handshake fails.
    func get(_ path: String, from server: TestServer, trusting certificate: String) throws -> String? {
        let client = try TLSClient(port: server.port, trusting: certificate)
        defer { client.close() }
        try? client.send("GET \(path) HTTP/1.1\r\nHost: \(server.host)\r\nConnection: close\r\n\r\n")
        let answer = client.readUntil("\r\n\r\n", timeout: 10)
        return answer.error == nil && answer.found ? client.readAll() : nil
    }

    @Test("reloadTLS gives new connections the renewed certificate while a connection made before keeps its own; unusable files are refused, naming the file, and the certificate in use stays")
    func reload() throws {
        let first = try TestCertificates()
        defer { first.remove() }
        let renewed = try TestCertificates()
        defer { renewed.remove() }
        let server = try server(first)
        defer { server.stop() }
        let before = try TLSClient(port: server.port, trusting: first.certificate)
        defer { before.close() }
        try before.send("GET /api/countdowns HTTP/1.1\r\nHost: \(server.host)\r\n\r\n")
        #expect(before.readUntil("[]", timeout: 10).found)

        let garbage = try renewed.file("garbage.pem", "this is not PEM\n")
        for (certificate, key, blamed) in [(garbage, renewed.key, garbage), (renewed.certificate, first.key, first.key),
                                           (renewed.folder + "/nowhere.pem", renewed.key, renewed.folder + "/nowhere.pem")] {
            do {
                try server.server.reloadTLS(certificate: certificate, key: key)
                Issue.record("\(certificate) with \(key) was taken")
            } catch let error as TLSFileError {
                #expect(error.file == blamed)
                #expect(error.description.hasPrefix("the TLS "), "\(error)")
            }
        }
        // Still the first certificate.
        #expect(try get("/api/countdowns", from: server, trusting: first.certificate)?.hasPrefix("HTTP/1.1 200 OK") == true)
        #expect(try get("/api/countdowns", from: server, trusting: renewed.certificate) == nil)

        try server.server.reloadTLS(certificate: renewed.certificate, key: renewed.key)
        #expect(try get("/api/countdowns", from: server, trusting: renewed.certificate)?.hasPrefix("HTTP/1.1 200 OK") == true)
        #expect(try get("/api/countdowns", from: server, trusting: first.certificate) == nil, "a new connection no longer gets the old certificate")
        // The connection made before goes on with the certificate it was given.
        try server.store(running("tea", seconds: 180, at: clock.now))
        try before.send("GET /api/countdowns/tea HTTP/1.1\r\nHost: \(server.host)\r\nConnection: close\r\n\r\n")
        #expect(before.readUntil("\"id\" : \"tea\"", timeout: 10).found)
    }

    @Test("reloadTLS on a server started over plain HTTP checks the files but leaves it plain")
    func reloadOnPlainServer() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let clock = self.clock
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        #expect(throws: TLSFileError.self) { try server.server.reloadTLS(certificate: certificates.key, key: certificates.key) }
        try server.server.reloadTLS(certificate: certificates.certificate, key: certificates.key)
        #expect(try server.request("GET", "/api/countdowns").status == 200)
    }

    @Test("A client that does not trust the certificate fails the handshake and gets nothing")
    func untrustedClientFails() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let stranger = try TestCertificates()
        defer { stranger.remove() }
        let server = try server(certificates)
        defer { server.stop() }
        let client = try TLSClient(port: server.port, trusting: stranger.certificate)
        defer { client.close() }
        try? client.send("GET /api/countdowns HTTP/1.1\r\nHost: \(server.host)\r\n\r\n")
        let outcome = client.readUntil("HTTP/1.1", timeout: 10)
        #expect(!outcome.found)
        #expect(outcome.error != nil)
    }

    @Test("A missing file, a file with no certificate or key, and a key that is not the certificate's are refused at load, naming the file and why")
    func badFilesAreRefused() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let missing = certificates.folder + "/nowhere.pem"
        let garbage = try certificates.file("garbage.pem", "this is not PEM\n")
        func refusal(_ certificate: String, _ key: String) -> TLSFileError? {
            do {
                _ = try ServerTLS.load(certificate: certificate, key: key)
                return nil
            } catch {
                return error as? TLSFileError
            }
        }
        let noCertificate = refusal(missing, certificates.key)
        #expect(noCertificate?.file == missing)
        #expect(noCertificate?.reason == "No such file or directory")
        #expect(noCertificate?.description == "the TLS certificate \(missing) cannot be used: No such file or directory")

        let directory = refusal(certificates.folder, certificates.key)
        #expect(directory?.reason == "Is a directory")

        let notPEM = refusal(garbage, certificates.key)
        #expect(notPEM?.file == garbage)
        #expect(notPEM?.role == "certificate")
        #expect(notPEM?.reason == "no start line: no PEM certificate in it")

        let keyNotPEM = refusal(certificates.certificate, garbage)
        #expect(keyNotPEM?.file == garbage)
        #expect(keyNotPEM?.role == "private key")
        // OpenSSL 3's reason here is "unsupported" (its decoders found nothing they read); 1.1 said "no start line".
        #expect(keyNotPEM?.reason.hasSuffix(": no unencrypted PEM private key in it") == true, "\(keyNotPEM?.reason ?? "loaded")")

        let certificateAsKey = refusal(certificates.certificate, certificates.certificate)
        #expect(certificateAsKey?.file == certificates.certificate)
        #expect(certificateAsKey?.role == "private key")

        let mismatch = refusal(certificates.certificate, certificates.otherKey)
        #expect(mismatch?.file == certificates.otherKey)
        #expect(mismatch?.reason.contains("key values mismatch") == true, "\(mismatch?.reason ?? "loaded")")
        #expect(mismatch?.reason.contains("not the key of \(certificates.certificate)") == true)

        #expect(refusal(certificates.certificate, certificates.key) == nil)
    }
}
