import Foundation
import RedisTestServer
import Testing

extension RedisStoreFaults {
    /// The real binary against a redis-server that speaks only TLS, with
    /// certificates this suite makes (and a server it always stops).
    @Suite("Redis over TLS, end to end", .serialized,
           .enabled(if: TestCertificates.toolsMissing == nil, "\(TestCertificates.toolsMissing ?? "")"))
    final class RedisTLSEndToEndTests {
        let certificates: TestCertificates
        let server: RedisServer
        var store: [String] { ["--store", server.url, "--redis-cacert", certificates.ca] }

        init() throws {
            certificates = try TestCertificates()
            server = try RedisServer(tls: RedisServer.TLS(cert: certificates.server.cert, key: certificates.server.key, ca: certificates.ca))
        }

        @Test("append, pause, resume and cancel from a third shell reach two running processes over TLS within 100 ms")
        func thirdShellControlsTwoProcesses() throws {
            try Live.controlFromAThirdShell(store: store)
        }

        @Test("the CA comes from --redis-cacert, the URL's query or CDSCRIPT_REDIS_CACERT; without it the system's CAs refuse the test's; --redis-insecure warns on every start")
        func settingSources() throws {
            #expect(try LiveProcess.run(store + [Scratch.script(#"countdown.start{ id = "t", seconds = 100, persist = true }; os.exit(0)"#)]).status == 0)
            #expect(try server.cli("HEXISTS", "cdscript:countdowns", "t") == "1")
            let byQuery = try LiveProcess.run(["list", "--store", "\(server.url)?cacert=\(certificates.ca)"])
            #expect(byQuery.status == 0 && byQuery.lines.contains { $0.hasPrefix("t ") }, "\(byQuery.lines) \(byQuery.stderr)")
            let byEnvironment = try LiveProcess.run(["list"], environment: ["CDSCRIPT_STORE": server.url, "CDSCRIPT_REDIS_CACERT": certificates.ca])
            #expect(byEnvironment.status == 0 && byEnvironment.lines.contains { $0.hasPrefix("t ") }, "\(byEnvironment.stderr)")
            let systemCAs = try LiveProcess.run(["list", "--store", server.url])
            #expect(systemCAs.status == 6, "\(systemCAs.stderr)")
            #expect(systemCAs.stderr.contains("certificate verify failed"), "\(systemCAs.stderr)")
            for _ in 0..<2 {
                let insecure = try LiveProcess.run(["list", "--store", server.url, "--redis-insecure"])
                #expect(insecure.status == 0, "\(insecure.stderr)")
                #expect(insecure.stderr.contains("warning: --redis-insecure"), "\(insecure.stderr)")
            }
            let plainOptions = try LiveProcess.run(["list", "--store", "redis://127.0.0.1:\(server.port)", "--redis-cacert", certificates.ca])
            #expect(plainOptions.status == 64, "TLS options on a plain URL are bad usage: \(plainOptions.stderr)")
        }

        @Test("a certificate that cannot be trusted ends every command with exit 6 naming the cause; nothing is written; the password never shows")
        func refusedAtConnect() throws {
            let strange = try RedisServer(tls: RedisServer.TLS(cert: certificates.unknownCA.cert, key: certificates.unknownCA.key, ca: certificates.ca))
            let url = "rediss://:pw-s3cret@127.0.0.1:\(strange.port)"
            let trust = ["--redis-cacert", certificates.ca]
            for args in [["list"], ["append", "x", "1"], ["pause", "x"], ["cancel", "x"], ["clear"]] {
                let r = try LiveProcess.run(args + ["--store", url] + trust)
                #expect(r.status == 6, "\(args): \(r.stderr)")
                #expect(r.stderr.contains("certificate verify failed (unable to get local issuer certificate)"), "\(args): \(r.stderr)")
                #expect(!r.stderr.contains("pw-s3cret"), "\(r.stderr)")
            }
            let run = try LiveProcess.run(["--store", url] + trust + [Scratch.script(#"countdown.start{ id = "m", seconds = 0.3, persist = true }"#)])
            #expect(run.status == 6, "a run goes on in memory and exits 6: \(run.stderr)")
            #expect(run.stderr.contains("certificate verify failed"), "\(run.stderr)")
            #expect(!run.stderr.contains("pw-s3cret") && !run.lines.joined().contains("pw-s3cret"), "\(run.stderr)")
            #expect(try strange.cli("DBSIZE") == "0", "nothing written")
            let plain = try RedisServer()
            let notTLS = try LiveProcess.run(["list", "--store", "rediss://127.0.0.1:\(plain.port)"] + trust)
            #expect(notTLS.status == 6 && notTLS.stderr.contains("TLS handshake failed"), "\(notTLS.stderr)")
            #expect(try plain.cli("DBSIZE") == "0")
        }
    }
}
