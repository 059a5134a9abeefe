import Foundation

/// A self-signed certificate for 127.0.0.1 and localhost, and its key, made by
/// the openssl command line into a temporary folder of the test's own (which
/// `remove()` deletes). The certificate is its own certificate authority: a
/// client that trusts it accepts the server.
struct TestCertificates {
    /// Why the TLS tests cannot run here; nil when they can.
    static let unavailable: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
        ? nil : "the openssl command line is not installed (Debian: openssl)"

    let folder: String
    var certificate: String { folder + "/cert.pem" }
    var key: String { folder + "/key.pem" }
    /// A second key, not the certificate's.
    var otherKey: String { folder + "/other-key.pem" }

    init() throws {
        folder = NSTemporaryDirectory() + "cdscript-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=localhost",
                          "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", otherKey])
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes `text` to a file of the folder and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SocketError(description: "openssl \(arguments.joined(separator: " ")): \(String(decoding: said, as: UTF8.self))")
        }
    }
}
