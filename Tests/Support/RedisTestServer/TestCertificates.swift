import Foundation

/// Certificates made for one test by the openssl command line, in a scratch
/// directory removed when the value goes: a CA, and signed by it a server
/// certificate for 127.0.0.1 and localhost, one that expired in 2020, one for
/// another name, a client certificate; and a server certificate from a CA no
/// one trusts. EC keys (P-256): quick to make.
public final class TestCertificates: @unchecked Sendable {
    public let directory: String

    /// The CA's certificate (what a client is told to trust).
    public var ca: String { path("ca.crt") }
    /// The server's certificate and key, for 127.0.0.1 and localhost.
    public var server: (cert: String, key: String) { pair("server") }
    /// Valid for 127.0.0.1 and localhost, but only from 2020-01-01 to 2020-01-31.
    public var expired: (cert: String, key: String) { pair("expired") }
    /// Valid, but for elsewhere.invalid only.
    public var wrongName: (cert: String, key: String) { pair("wrongname") }
    /// For 127.0.0.1 and localhost, signed by a CA nobody was told to trust.
    public var unknownCA: (cert: String, key: String) { pair("stranger") }
    /// A client certificate (mutual TLS) signed by the CA.
    public var client: (cert: String, key: String) { pair("client") }
    /// A client certificate signed by the CA nobody trusts.
    public var strangerClient: (cert: String, key: String) { pair("strangerclient") }

    /// libfaketime, preloaded into openssl to date the expired certificate (not the
    /// faketime wrapper: its semaphore is shared by runs at the same time).
    static let fakeTimeLibrary = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"

    /// Why the certificates cannot be made here, or nil: openssl makes them,
    /// libfaketime (Debian: faketime) dates the expired one.
    public static let toolsMissing: String? = {
        for tool in ["/usr/bin/openssl", fakeTimeLibrary] where !FileManager.default.fileExists(atPath: tool) {
            return "\(tool) is not installed (scripts/setup installs openssl and faketime)"
        }
        return nil
    }()

    /// Every certificate above; with `serverOnly`, the CA and the server's only.
    public init(serverOnly: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-certs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try makeCA("ca", name: "cdscript test CA")
        let here = "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"
        try sign("server", by: "ca", extensions: here)
        if serverOnly { return }
        try makeCA("otherca", name: "a CA nobody trusts")
        try sign("expired", by: "ca", extensions: here, at: "2020-01-01 00:00:00")
        try sign("wrongname", by: "ca", extensions: "subjectAltName=DNS:elsewhere.invalid\nextendedKeyUsage=serverAuth\n")
        try sign("stranger", by: "otherca", extensions: here)
        try sign("client", by: "ca", extensions: "extendedKeyUsage=clientAuth\n")
        try sign("strangerclient", by: "otherca", extensions: "extendedKeyUsage=clientAuth\n")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    public func path(_ name: String) -> String { directory + "/" + name }

    private func pair(_ name: String) -> (cert: String, key: String) { (path(name + ".crt"), path(name + ".key")) }

    private func makeCA(_ name: String, name subject: String) throws {
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                     "-keyout", path(name + ".key"), "-out", path(name + ".crt"), "-days", "30", "-subj", "/CN=\(subject)"])
    }

    /// A key and a certificate for it signed by `ca`, valid for 30 days from now
    /// (or from `at`, with the clock faked).
    private func sign(_ name: String, by ca: String, extensions: String, at start: String? = nil) throws {
        try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                     "-keyout", path(name + ".key"), "-out", path(name + ".csr"), "-subj", "/CN=\(name)"])
        try extensions.write(toFile: path(name + ".ext"), atomically: true, encoding: .utf8)
        try openssl(["x509", "-req", "-in", path(name + ".csr"), "-CA", path(ca + ".crt"), "-CAkey", path(ca + ".key"),
                     "-set_serial", String(Int.random(in: 1...Int(Int32.max))), "-days", "30",
                     "-extfile", path(name + ".ext"), "-out", path(name + ".crt")], at: start)
    }

    private func openssl(_ arguments: [String], at start: String? = nil) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = arguments
        if let start {
            var environment = ProcessInfo.processInfo.environment
            environment["LD_PRELOAD"] = Self.fakeTimeLibrary
            environment["FAKETIME"] = "@" + start
            p.environment = environment
        }
        let errors = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = errors
        try p.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw RedisServer.Failure(message: "openssl \(arguments.first ?? ""): \(String(decoding: message, as: UTF8.self))")
        }
    }
}
