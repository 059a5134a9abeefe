/// `redis-sentinel://[[USER]:PASSWORD@]HOST[:PORT][,HOST[:PORT]...]/MASTERNAME[/DB]`:
/// the store is whichever server the sentinels (port 26379 by default) name as
/// the primary of MASTERNAME, found again after a failover. The password is the
/// primary's; the sentinels are asked without one.
extension RedisURL {
    /// A sentinel's address.
    public struct Endpoint: Equatable, Sendable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var description: String { "\(host.contains(":") ? "[\(host)]" : host):\(port)" }
    }

    /// A sentinel's own URL: plain text, database 0, no password.
    init(sentinel: Endpoint) {
        host = sentinel.host
        port = sentinel.port
        database = 0
    }

    /// True for a `redis-sentinel://` URL.
    public var isSentinel: Bool { masterName != nil }

    static let sentinelScheme = "redis-sentinel://"

    /// Parses the part after the scheme and the credentials: the sentinels, the
    /// master's name and the database.
    static func sentinelParts(_ rest: Substring, in text: String) throws(Invalid) -> (sentinels: [Endpoint], name: String, database: Int) {
        guard let slash = rest.firstIndex(of: "/") else {
            throw Invalid(description: "'\(redacted(text))' names no primary: expected redis-sentinel://HOST[:PORT][,HOST[:PORT]...]/MASTERNAME[/DB]")
        }
        var sentinels: [Endpoint] = []
        for part in rest[..<slash].split(separator: ",", omittingEmptySubsequences: false) {
            var host = String(part)
            var port = 26379
            if let colon = part.lastIndex(of: ":"), !part.hasSuffix("]") {
                host = String(part[..<colon])
                guard let p = Int(part[part.index(after: colon)...]), (1...65535).contains(p) else {
                    throw Invalid(description: "'\(redacted(text))': a sentinel's port must be a number from 1 to 65535")
                }
                port = p
            }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw Invalid(description: "'\(redacted(text))' names a sentinel without a host") }
            sentinels.append(Endpoint(host: host, port: port))
        }
        let path = rest[rest.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false)
        guard let name = path.first.map({ percentDecoded(String($0)) }), !name.isEmpty else {
            throw Invalid(description: "'\(redacted(text))' names no primary (…/MASTERNAME)")
        }
        var database = 0
        if path.count > 1 {
            guard path.count == 2, let n = Int(path[1]), n >= 0 else {
                throw Invalid(description: "'\(redacted(text))': the database must be a number, got '\(path.dropFirst().joined(separator: "/"))'")
            }
            database = n
        }
        return (sentinels, name, database)
    }
}
