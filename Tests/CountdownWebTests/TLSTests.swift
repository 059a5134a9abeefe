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
