import Foundation
import Testing

/// `cdscript serve --tls-cert FILE --tls-key FILE`: HTTPS with swift-nio-ssl, the
/// files checked at start (exit 13 with the file and OpenSSL's reason), and the
/// warning for a listen beyond loopback without TLS. The real binary, with curl
/// trusting the test's own certificate (`--cacert`).
@Suite("cdscript serve over HTTPS, and what it says about bad files and plain HTTP beyond loopback",
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"),
                "needs the openssl and curl command lines (Debian: openssl, curl)"))
struct ServeTLSTests {
    /// A self-signed certificate for 127.0.0.1 and localhost and its key, in `dir`.
    static func certificate(in dir: String) throws -> (certificate: String, key: String) {
        let certificate = dir + "/cert.pem", key = dir + "/key.pem"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                       "-out", certificate, "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return (certificate, key)
    }

    static func curl(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = ["-s", "--max-time", "20"] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    @Test("with a certificate and its key it serves https:// (curl trusting the certificate reads the API) and refuses plain http:// on that port; it says nothing of plain HTTP")
    func servesHTTPS() throws {
        let dir = Scratch.directory("serve-tls")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.certificate(in: dir)
        #expect(try LiveProcess.run(["start", "tea", "25m", "--state-dir", dir]).status == 0)
        let serve = try LiveProcess(["serve", "--listen", "127.0.0.1:0", "--token-file", dir + "/token", "--state-dir", dir,
                                     "--tls-cert", files.certificate, "--tls-key", files.key])
        defer { serve.signal(SIGTERM); _ = serve.wait() }
        let line = try #require(serve.waitForLine(timeout: 20) { $0.hasPrefix("serving https://") }, "\(serve.texts) \(serve.stderr)")
        let base = String(line.text.dropFirst("serving ".count).prefix { $0 != " " }).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let secure = try Self.curl(["--cacert", files.certificate, base + "/api/countdowns/tea"])
        #expect(secure.status == 0 && secure.output.contains("\"id\" : \"tea\""), "\(secure)")
        let plain = try Self.curl([base.replacingOccurrences(of: "https://", with: "http://") + "/api/countdowns/tea"])
        #expect(plain.status != 0 && !plain.output.contains("\"tea\""), "\(plain)")
        #expect(!serve.stderr.contains("warning"), "\(serve.stderr)")
    }

    @Test("SIGHUP reads the certificate and key again: new connections get the renewed one; unusable files are said and the one in use stays")
    func reloadOnSIGHUP() throws {
        let dir = Scratch.directory("serve-tls-reload")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/old", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/new", withIntermediateDirectories: true)
        let old = try Self.certificate(in: dir + "/old"), renewed = try Self.certificate(in: dir + "/new")
        let certificate = dir + "/cert.pem", key = dir + "/key.pem"
        try FileManager.default.copyItem(atPath: old.certificate, toPath: certificate)
        try FileManager.default.copyItem(atPath: old.key, toPath: key)
        #expect(try LiveProcess.run(["start", "tea", "25m", "--state-dir", dir]).status == 0)
        let serve = try LiveProcess(["serve", "--listen", "127.0.0.1:0", "--token-file", dir + "/token", "--state-dir", dir,
                                     "--tls-cert", certificate, "--tls-key", key])
        defer { serve.signal(SIGTERM); _ = serve.wait() }
        let line = try #require(serve.waitForLine(timeout: 20) { $0.hasPrefix("serving https://") }, "\(serve.texts) \(serve.stderr)")
        let url = String(line.text.dropFirst("serving ".count).prefix { $0 != " " }) + "api/countdowns/tea"
        #expect(try Self.curl(["--cacert", old.certificate, url]).status == 0)
        #expect(try Self.curl(["--cacert", renewed.certificate, url]).status != 0, "a certificate it does not serve yet")
        // Renewed as certbot does: new files in place, then a SIGHUP.
        for (from, to) in [(renewed.certificate, certificate), (renewed.key, key)] {
            try FileManager.default.removeItem(atPath: to)
            try FileManager.default.copyItem(atPath: from, toPath: to)
        }
        // The log says "reloaded the actions" once the SIGHUP has been handled, the
        // certificate first.
        func reloads() -> Int { serve.texts.filter { $0.contains("reloaded the actions") }.count }
        serve.signal(SIGHUP)
        #expect(serve.waitForLine(timeout: 20) { $0.contains("reloaded the actions") } != nil, "\(serve.texts)")
        #expect(try Self.curl(["--cacert", renewed.certificate, url]).status == 0)
        #expect(try Self.curl(["--cacert", old.certificate, url]).status != 0, "the old certificate is no longer served")
        // A broken renewal: said on stderr, and the renewed certificate keeps serving.
        try "not a certificate\n".write(toFile: certificate, atomically: true, encoding: .utf8)
        serve.signal(SIGHUP)
        let giveUp = Date().addingTimeInterval(20)
        while reloads() < 2 && Date() < giveUp { Thread.sleep(forTimeInterval: 0.05) }
        #expect(reloads() == 2, "\(serve.texts)")
        #expect(try Self.curl(["--cacert", renewed.certificate, url]).status == 0)
        serve.signal(SIGTERM)
        #expect(serve.wait() == 0)
        #expect(serve.stderr.contains(certificate) && serve.stderr.contains("the certificate in use stays"), "\(serve.stderr)")
    }

    @Test("--tls-cert without --tls-key, or the other way round, is bad usage (64)")
    func oneWithoutTheOther() throws {
        let dir = Scratch.directory("serve-tls-usage")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let certOnly = try LiveProcess.run(["serve", "--listen", "127.0.0.1:0", "--state-dir", dir, "--tls-cert", dir + "/cert.pem"])
        #expect(certOnly.status == 64)
        #expect(certOnly.stderr.contains("--tls-cert needs --tls-key"), "\(certOnly.stderr)")
        let keyOnly = try LiveProcess.run(["serve", "--listen", "127.0.0.1:0", "--state-dir", dir, "--tls-key", dir + "/key.pem"])
        #expect(keyOnly.status == 64)
        #expect(keyOnly.stderr.contains("--tls-key needs --tls-cert"), "\(keyOnly.stderr)")
    }

    @Test("a certificate file that is missing, or a key that is not PEM, stops serve at start with exit 13, the file and the reason")
    func badFilesExit13() throws {
        let dir = Scratch.directory("serve-tls-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.certificate(in: dir)
        let missing = try LiveProcess.run(["serve", "--listen", "127.0.0.1:0", "--state-dir", dir, "--token-file", dir + "/token",
                                           "--tls-cert", dir + "/nowhere.pem", "--tls-key", files.key])
        #expect(missing.status == 13)
        #expect(missing.stderr.contains("cdscript serve: the TLS certificate \(dir)/nowhere.pem cannot be used: No such file or directory"), "\(missing.stderr)")
        try "not a key\n".write(toFile: dir + "/bad-key.pem", atomically: true, encoding: .utf8)
        let badKey = try LiveProcess.run(["serve", "--listen", "127.0.0.1:0", "--state-dir", dir, "--token-file", dir + "/token",
                                          "--tls-cert", files.certificate, "--tls-key", dir + "/bad-key.pem"])
        #expect(badKey.status == 13)
        #expect(badKey.stderr.contains("the TLS private key \(dir)/bad-key.pem cannot be used: "), "\(badKey.stderr)")
        #expect(badKey.stderr.contains(": no unencrypted PEM private key in it"), "\(badKey.stderr)")
    }

    @Test("listening beyond loopback over plain HTTP prints one warning line on stderr; over HTTPS none")
    func warnsBeyondLoopback() throws {
        let dir = Scratch.directory("serve-tls-warn")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.certificate(in: dir)
        let plain = try LiveProcess(["serve", "--listen", "0.0.0.0:0", "--state-dir", dir, "--token-file", dir + "/token"])
        #expect(plain.waitForLine(timeout: 20) { $0.hasPrefix("serving http://") } != nil, "\(plain.texts) \(plain.stderr)")
        plain.signal(SIGTERM)
        #expect(plain.wait() == 0)
        let warnings = plain.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1 && warnings[0].contains("over plain HTTP"), "\(plain.stderr)")
        let secure = try LiveProcess(["serve", "--listen", "0.0.0.0:0", "--state-dir", dir, "--token-file", dir + "/token",
                                      "--tls-cert", files.certificate, "--tls-key", files.key])
        #expect(secure.waitForLine(timeout: 20) { $0.hasPrefix("serving https://") } != nil, "\(secure.texts) \(secure.stderr)")
        secure.signal(SIGTERM)
        #expect(secure.wait() == 0)
        #expect(!secure.stderr.contains("warning"), "\(secure.stderr)")
    }
}
