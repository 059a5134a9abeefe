import CountdownCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The bearer token that control requests to `serve` must carry: read from its file,
/// or made on first start (32 random bytes as hex), written with mode 0600 through a
/// temporary file renamed into place, so that a reader never sees half a token and a
/// symlink planted at the name is replaced, not followed.
public enum ControlToken {
    /// What `load(orCreateAt:)` found.
    public enum Outcome: Equatable, Sendable {
        case read(String)
        case created(String)

        public var token: String {
            switch self {
            case .read(let token), .created(let token): return token
            }
        }
    }

    /// Why there is no token.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The token in `path`; when there is no file, a new one written there.
    public static func load(orCreateAt path: String) throws(Failure) -> Outcome {
        if let data = FileManager.default.contents(atPath: path) {
            // Blanks and line breaks around it go (trimmingCharacters is not in FoundationEssentials).
            let read = String(decoding: data, as: UTF8.self)
            let token = String(read.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            guard token.count >= 16, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw Failure(description: "the token file \(path) holds no token (at least 16 characters, no spaces); remove it to have a new one made")
            }
            return .read(token)
        }
        // The system's generator: the kernel's randomness (getrandom), never a seeded one.
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let token = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let folder = PathText.folder(of: path)
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot write the token to \(path): \(String(cString: strerror(errno)))") }
        let line = Array((token + "\n").utf8)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == line.count, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(description: "cannot write the token to \(path): \(reason)")
        }
        return .created(token)
    }
}
