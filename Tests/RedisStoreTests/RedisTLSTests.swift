import CountdownCore
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

/// `rediss://`: hiredis's reply reader and command formatter over an OpenSSL
/// stream, against real TLS redis-servers holding certificates the test made.
@Suite("Redis over TLS", .serialized, .enabled(if: TestCertificates.toolsMissing == nil, "\(TestCertificates.toolsMissing ?? "")"))
struct RedisTLSTests {
    let certificates: TestCertificates

    init() throws { certificates = try TestCertificates() }

    /// A TLS server presenting `pair`, accepting clients as `authClients` says.
    func server(_ pair: (cert: String, key: String), authClients: Bool = false) throws -> RedisServer {
        try RedisServer(tls: RedisServer.TLS(cert: pair.cert, key: pair.key, ca: certificates.ca, authClients: authClients,
                                             client: authClients ? certificates.client : nil))
    }

    /// `server`'s URL, as `rediss://HOST:PORT`, with `settings`.
    func url(_ server: RedisServer, host: String = "127.0.0.1", _ settings: RedisTLSSettings) throws -> RedisURL {
        var url = try RedisURL("rediss://\(host):\(server.port)")
        url.tls = settings
        return url
    }

    /// The message of the error `connect` threw, or nil when it connected.
    func failureToConnect(_ url: RedisURL) -> String? {
        do {
            try RedisCountdownStore(url: url, clock: BootClock()).connect()
            return nil
        } catch {
            return error.message
        }
    }

    @Test("rediss:// URLs: TLS settings in the query; options win over the query, the query over the environment; misplaced or unknown settings are refused; the password never shows")
    func urls() throws {
        let u = try RedisURL("rediss://me:s3cret@cache.example:6380/2?cacert=/etc/ca%20file.pem&sni=redis.example&insecure")
        #expect(u.host == "cache.example" && u.port == 6380 && u.database == 2 && u.user == "me" && u.password == "s3cret")
        #expect(u.tls == RedisTLSSettings(caFile: "/etc/ca file.pem", serverName: "redis.example", insecure: true))
        #expect(u.description == "rediss://me:***@cache.example:6380/2")
        #expect(try RedisURL("rediss://h").tls == RedisTLSSettings(), "rediss:// alone: the system's CAs, verified")
        #expect(try RedisURL("redis://h").tls == nil)
        #expect(try RedisURL("redis://:pa?ss@h").password == "pa?ss", "a ? in the credentials is no query")

        let layered = try RedisURL("rediss://h?cacert=query.pem&sni=query.example")
            .withTLS(options: RedisTLSSettings(caFile: "option.pem"),
                     environment: RedisTLSSettings(caFile: "env.pem", caDirectory: "/env/dir", serverName: "env.example"))
        #expect(layered.tls == RedisTLSSettings(caFile: "option.pem", caDirectory: "/env/dir", serverName: "query.example"))
        #expect(try RedisURL("redis://h").withTLS(options: RedisTLSSettings(), environment: RedisTLSSettings(caFile: "env.pem")).tls == nil,
                "the environment's settings do not turn TLS on")

        for bad in ["redis://:pw@h?cacert=x.pem", "rediss://:pw@h?cafile=x.pem", "rediss://:pw@h?cacert", "rediss://:pw@h?cert=c.pem"] {
            do {
                _ = try RedisURL(bad).withTLS(options: RedisTLSSettings(), environment: RedisTLSSettings())
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(!"\(error)".contains("pw"), "\(error)")
            }
        }
        #expect(throws: RedisURL.Invalid.self) {
            try RedisURL("redis://h").withTLS(options: RedisTLSSettings(caFile: "x.pem"), environment: RedisTLSSettings())
        }
        #expect(RedisTLSSettings.fromEnvironment { ["CDSCRIPT_REDIS_CACERT": "a.pem", "CDSCRIPT_REDIS_INSECURE": "yes", "CDSCRIPT_REDIS_SNI": ""][$0] }
                == RedisTLSSettings(caFile: "a.pem", insecure: true))
    }

    @Test("over TLS: commands, a pipeline of 500, a value of 4 MB, and a subscriber's messages read without blocking")
    func transport() throws {
        let server = try server(certificates.server)
        let url = try url(server, RedisTLSSettings(caFile: certificates.ca))
        let connection = try RedisConnection(url, timeoutMilliseconds: 5_000)
        #expect(try connection.command(["PING"]) == .status("PONG"))
        for i in 0..<500 { try connection.send(["RPUSH", "list", "item \(i)"]) }
        let replies = try (0..<500).map { _ in try connection.reply() }
        #expect(replies.last == .integer(500))
        let big = String(repeating: "0123456789abcdef", count: 256 * 1024)
        #expect(try connection.command(["SET", "big", big]) == .status("OK"))
        #expect(try connection.command(["GET", "big"]) == .string(big))
        #expect(try server.cli("LLEN", "list") == "500")

        let subscriber = try RedisConnection(url, timeoutMilliseconds: 5_000)
        #expect(try subscriber.command(["SUBSCRIBE", "channel"]) == .array([.string("subscribe"), .string("channel"), .integer(1)]))
        #expect(try subscriber.pendingReplies().isEmpty, "nothing published yet: no wait, no reply")
        for i in 0..<50 { _ = try connection.command(["PUBLISH", "channel", "id-\(i)"]) }
        var received: [String] = []
        let deadline = Date().addingTimeInterval(10)
        while received.count < 50 && Date() < deadline {
            var p = pollfd(fd: subscriber.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 100)
            for case .array(let parts) in try subscriber.pendingReplies() { received.append(parts[2].string ?? "") }
        }
        #expect(received == (0..<50).map { "id-\($0)" }, "every message, in order, each once")
    }

    @Test("a store over TLS keeps countdowns and reconnects after its server restarts")
    func store() throws {
        let server = try server(certificates.server)
        let url = try url(server, RedisTLSSettings(caFile: certificates.ca))
        let store = RedisCountdownStore(url: url)
        try store.connect()
        let now = BootClock().wallNow()
        let record = StoredCountdown(id: "tls", state: .running, kind: .duration, wallDeadline: now + 60 * Time.nanosecondsPerSecond,
                                     every: Time.nanosecondsPerSecond, total: 60 * Time.nanosecondsPerSecond,
                                     bootID: nil, bootDeadline: nil, updatedAt: now)
        try store.save(record)
        #expect(try RedisCountdownStore(url: url).load(id: "tls")?.total == record.total)
        server.stop()
        store.markLost("the test stopped the server")
        #expect(store.isOffline)
        #expect(!store.reconnect(withinMilliseconds: 500), "no server: no connection")
        try server.start()
        #expect(store.reconnect())
        #expect(!store.isOffline)
        #expect(try store.load(id: "tls")?.total == record.total)
    }

    @Test("refused at connect, each naming its cause, with nothing written: a server that is not TLS, an unknown CA, an expired certificate, a wrong name, a missing or untrusted client certificate")
    func refusals() throws {
        let trusting = RedisTLSSettings(caFile: certificates.ca)
        let plain = try RedisServer()
        let notTLS = failureToConnect(try url(plain, trusting))
        #expect(notTLS?.contains("TLS handshake failed") == true, "\(notTLS ?? "connected")")

        let stranger = try server(certificates.unknownCA)
        let expired = try server(certificates.expired)
        let wrongName = try server(certificates.wrongName)
        let mutual = try server(certificates.server, authClients: true)
        let expectations: [(RedisServer, RedisURL, String)] = try [
            (stranger, url(stranger, trusting), "certificate verify failed (unable to get local issuer certificate)"),
            (expired, url(expired, trusting), "certificate verify failed (certificate has expired)"),
            (wrongName, url(wrongName, trusting), "certificate verify failed (IP address mismatch)"),
            (wrongName, url(wrongName, host: "localhost", trusting), "certificate verify failed (hostname mismatch)"),
            (mutual, url(mutual, trusting), "certificate required"),
            (mutual, url(mutual, RedisTLSSettings(caFile: certificates.ca, certificateFile: certificates.strangerClient.cert,
                                                   keyFile: certificates.strangerClient.key)), "unknown ca"),
            (plain, url(plain, RedisTLSSettings()), "TLS handshake failed"),
        ]
        for (server, url, cause) in expectations {
            let message = failureToConnect(url)
            #expect(message?.contains(cause) == true, "\(url): \(message ?? "connected")")
            #expect(message?.hasPrefix("cannot connect to \(url)") == true, "\(message ?? "connected")")
            #expect(try server.cli("DBSIZE") == "0", "nothing written to \(url)")
        }
    }

    @Test("mutual TLS with a trusted client certificate, --redis-sni naming the certificate's host, and --redis-insecure each connect; a password is sent over TLS and never shown")
    func acceptedVariants() throws {
        let mutual = try server(certificates.server, authClients: true)
        #expect(failureToConnect(try url(mutual, RedisTLSSettings(caFile: certificates.ca, certificateFile: certificates.client.cert,
                                                                   keyFile: certificates.client.key))) == nil)
        let wrongName = try server(certificates.wrongName)
        #expect(failureToConnect(try url(wrongName, RedisTLSSettings(caFile: certificates.ca, serverName: "elsewhere.invalid"))) == nil)
        #expect(failureToConnect(try url(wrongName, RedisTLSSettings(insecure: true))) == nil)
        let expired = try server(certificates.expired)
        #expect(failureToConnect(try url(expired, RedisTLSSettings(insecure: true))) == nil)

        let guarded = try server(certificates.server)
        try guarded.cli("CONFIG", "SET", "requirepass", "s3cret")
        var right = try RedisURL("rediss://:s3cret@127.0.0.1:\(guarded.port)")
        right.tls = RedisTLSSettings(caFile: certificates.ca)
        var wrong = right
        wrong.password = "wrong-pw"
        #expect(failureToConnect(right) == nil)
        let refused = failureToConnect(wrong)
        #expect(refused?.contains("refused the password") == true && refused?.contains("wrong-pw") == false, "\(refused ?? "connected")")
    }
}
