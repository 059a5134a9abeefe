/// `redis-sentinel://[[USER]:PASSWORD@]HOST[:PORT][,HOST[:PORT]...]/MASTERNAME[/DB]`:
/// the store is whichever server the sentinels (port 26379 by default) name as
/// the primary of MASTERNAME, found again after a failover. The password is the
/// primary's; the sentinels are asked without one.
///
/// `rediss-sentinel://…` is the same over TLS, to the sentinels and to the
/// servers they name, with the same settings (CA, client certificate, SNI), as
/// Lettuce's `rediss-sentinel://` and go-redis's failover client do; a server's
/// certificate is checked against the address it was reached at (the
/// sentinel's host, or the primary's address as the sentinels give it, an IP
/// address in most deployments), unless `sni` names the one to check.
extension RedisURL {
    /// A sentinel's address.
    public struct Endpoint: Equatable, Sendable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var description: String { "\(host.contains(":") ? "[\(host)]" : host):\(port)" }
    }

    /// A sentinel's own URL: database 0, no password, over TLS with `tls`
    /// (the store's settings) for a `rediss-sentinel://` store.
    init(sentinel: Endpoint, tls: RedisTLSSettings?) {
        host = sentinel.host
        port = sentinel.port
        database = 0
        self.tls = tls
    }

    /// True for a `redis-sentinel://` URL.
    public var isSentinel: Bool { masterName != nil }

    static let sentinelScheme = "redis-sentinel://"
    static let tlsSentinelScheme = "rediss-sentinel://"

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
