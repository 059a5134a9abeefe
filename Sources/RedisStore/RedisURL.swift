import Foundation

/// Where a Redis store is: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`.
///
/// `rediss://` (TLS) is refused: Debian's hiredis 0.14.1 is built without TLS
/// (there is no hiredis_ssl), so it cannot be offered honestly.
public struct RedisURL: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var database: Int
    public var user: String?
    public var password: String?

    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        if text.hasPrefix("rediss://") {
            throw Invalid(description: "\(text.split(separator: "@").last.map { "rediss://…@" + $0 } ?? "rediss://"): TLS (rediss://) is not supported: this cdscript uses Debian's hiredis 0.14.1, which is built without TLS; use redis:// on a trusted network or a TLS tunnel (stunnel, ssh -L)")
        }
        guard text.hasPrefix("redis://") else {
            throw Invalid(description: "'\(text)' is not a store URL: expected redis://[:PASSWORD@]HOST[:PORT][/DB]")
        }
        var rest = Substring(text.dropFirst("redis://".count))
        var user_: String?
        var password_: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                let user = credentials[..<colon]
                user_ = user.isEmpty ? nil : Self.percentDecoded(String(user))
                password_ = Self.percentDecoded(String(credentials[credentials.index(after: colon)...]))
            } else {
                password_ = Self.percentDecoded(String(credentials))
            }
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let db = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !db.isEmpty {
                guard let n = Int(db), n >= 0 else { throw Invalid(description: "'\(Self.redacted(text))': the database must be a number, got '\(db)'") }
                database = n
            }
        }
        var host = String(rest)
        var port = 6379
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            host = String(rest[..<colon])
            guard let p = Int(rest[rest.index(after: colon)...]), (1...65535).contains(p) else {
                throw Invalid(description: "'\(Self.redacted(text))': the port must be a number from 1 to 65535")
            }
            port = p
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw Invalid(description: "'\(Self.redacted(text))' names no host") }
        self.host = host
        self.port = port
        self.database = database
        self.user = user_
        self.password = password_
    }

    /// The URL without its password, for messages.
    public var description: String {
        let credentials = password == nil ? "" : "\(user ?? ""):***@"
        return "redis://\(credentials)\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
    }

    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        return "redis://***@" + text[text.index(after: at)...]
    }

    static func percentDecoded(_ text: String) -> String {
        text.removingPercentEncoding ?? text
    }

}
