import COpenSSL
import FoundationEssentials
import NIOSSL
#if canImport(Glibc)
import Glibc
#endif

/// A certificate or key that cannot be used: which file, and why (the system's
/// reason for a file that cannot be read, OpenSSL's for one that cannot be parsed
/// or a key that does not belong to the certificate).
public struct TLSFileError: Error, CustomStringConvertible, Sendable {
    /// The file at fault.
    public let file: String
    /// What it should have held: "certificate" or "private key".
    public let role: String
    /// Why it cannot be used.
    public let reason: String

    public var description: String { "the TLS \(role) \(file) cannot be used: \(reason)" }
}

/// HTTPS for the server: the certificate chain and private key, checked once at
/// start so that a bad file is reported then (with its name and the reason),
/// never at a client's first handshake.
public struct ServerTLS: Sendable {
    let context: NIOSSLContext

    /// Reads a PEM certificate chain (the server's certificate first) and its PEM
    /// private key. Throws `TLSFileError` for a file that cannot be read, holds no
    /// certificate or key, or a key that is not the certificate's.
    public static func load(certificate certificatePath: String, key keyPath: String) throws -> ServerTLS {
        let certificateBytes = try readFile(certificatePath, role: "certificate")
        let keyBytes = try readFile(keyPath, role: "private key")
        // The system's OpenSSL parses both first: its error queue says why a file is
        // refused, which BoringSSL's wrapper below does not pass on.
        try checkWithOpenSSL(certificate: certificateBytes, certificatePath: certificatePath, key: keyBytes, keyPath: keyPath)
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(certificateBytes)
            let key = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
            let configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            return ServerTLS(context: try NIOSSLContext(configuration: configuration))
        } catch {
            throw TLSFileError(file: certificatePath, role: "certificate", reason: "refused with its key \(keyPath): \(error)")
        }
    }

    private static func readFile(_ path: String, role: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TLSFileError(file: path, role: role, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw TLSFileError(file: path, role: role, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            bytes += chunk[..<n]
            // A certificate chain or key is a few kilobytes; a huge file is a mistake (or /dev/zero).
            guard bytes.count <= 1 << 20 else { throw TLSFileError(file: path, role: role, reason: "longer than 1 MiB: not a PEM file") }
        }
        return bytes
    }

    private static func checkWithOpenSSL(certificate: [UInt8], certificatePath: String, key: [UInt8], keyPath: String) throws {
        ERR_clear_error()
        guard let x509 = withMemoryBIO(certificate, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw TLSFileError(file: certificatePath, role: "certificate", reason: openSSLReason(or: "unreadable") + ": no PEM certificate in it")
        }
        defer { X509_free(x509) }
        // No passphrase is asked for (serve runs unattended): an encrypted key is refused.
        guard let pkey = withMemoryBIO(key, { PEM_read_bio_PrivateKey($0, nil, { _, _, _, _ in 0 }, nil) }) else {
            throw TLSFileError(file: keyPath, role: "private key", reason: openSSLReason(or: "unreadable") + ": no unencrypted PEM private key in it")
        }
        defer { EVP_PKEY_free(pkey) }
        guard X509_check_private_key(x509, pkey) == 1 else {
            throw TLSFileError(file: keyPath, role: "private key", reason: openSSLReason(or: "not the key of \(certificatePath)") + " (it is not the key of \(certificatePath))")
        }
    }

    private static func withMemoryBIO<T>(_ bytes: [UInt8], _ body: (OpaquePointer?) -> T?) -> T? {
        bytes.withUnsafeBytes { raw -> T? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// The reason of the most recent error on OpenSSL's queue (the queue emptied).
    private static func openSSLReason(or fallback: String) -> String {
        var last: UInt = 0
        while case let code = ERR_get_error(), code != 0 { last = code }
        guard last != 0, let reason = ERR_reason_error_string(last) else { return fallback }
        return String(cString: reason)
    }
}
