import FoundationEssentials

/// Where a Redis store is: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`, or
/// `rediss://…` for the same over TLS, whose query may name the TLS settings
/// (`?cacert=FILE&cacert-dir=DIR&cert=FILE&key=FILE&sni=NAME&insecure`).
///
/// `redis-sentinel://…/MASTERNAME` names the primary through its sentinels, and
/// `rediss-sentinel://…` does the same over TLS, to the sentinels and the data
/// nodes alike (RedisURL+Sentinel.swift).
///
/// Any of them may name replicas that must hold each change before it counts
/// as done (`?wait=N&wait-timeout=500ms`, `RedisReplicaWait`).
///
/// Characters that would end a part early (`@`, `/`, `?` in a password) are
/// percent-encoded. The password never appears in `description` or in any error.
public struct RedisURL: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var database: Int
    public var user: String?
    public var password: String?
    /// How to reach the server over TLS; nil for plain `redis://`.
    public var tls: RedisTLSSettings?
    /// The sentinels of a `redis-sentinel://` URL (then `host` and `port` are the first's).
    public var sentinels: [Endpoint] = []
    /// The name the sentinels know the primary by (`redis-sentinel://…/MASTERNAME`); nil otherwise.
    public var masterName: String?
    /// Replicas each change waits for (`WAIT`); empty: none.
    public var wait = RedisReplicaWait()

    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        guard let scheme = Self.schemes.first(where: { text.hasPrefix($0) }) else {
            throw Invalid(description: "'\(Self.redacted(text))' is not a store URL: expected redis://[:PASSWORD@]HOST[:PORT][/DB], rediss://… (TLS), redis-sentinel://HOST[:PORT][,HOST[:PORT]...]/MASTERNAME[/DB] or rediss-sentinel://… (TLS)")
        }
        var rest = Substring(text.dropFirst(scheme.count))
        // The query starts at the first `?` after the credentials.
        let afterCredentials = rest.lastIndex(of: "@").map { rest.index(after: $0) } ?? rest.startIndex
        var query: Substring?
        if let mark = rest[afterCredentials...].firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
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
        let settings = try Self.settings(query: query, in: text)
        let overTLS = scheme == "rediss://" || scheme == Self.tlsSentinelScheme
        if !overTLS, !settings.tls.isEmpty {
            throw Invalid(description: "'\(Self.redacted(text))': TLS settings need a rediss:// or rediss-sentinel:// URL (\(scheme) is plain text)")
        }
        if scheme == Self.sentinelScheme || scheme == Self.tlsSentinelScheme {
            let parts = try Self.sentinelParts(rest, in: text)
            (self.host, self.port, self.database) = (parts.sentinels[0].host, parts.sentinels[0].port, parts.database)
            (self.user, self.password, self.sentinels, self.masterName) = (user_, password_, parts.sentinels, parts.name)
            (self.tls, self.wait) = (overTLS ? settings.tls : nil, settings.wait)
            return
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
        (self.tls, self.wait) = (overTLS ? settings.tls : nil, settings.wait)
    }

    /// The schemes, longest first where one starts another.
    static let schemes = [tlsSentinelScheme, sentinelScheme, "rediss://", "redis://"]

    /// The query's TLS and replica settings; an unknown key or a value that does
    /// not read is refused, so a typo never weakens what was asked for.
    private static func settings(query: Substring?, in text: String) throws(Invalid) -> (tls: RedisTLSSettings, wait: RedisReplicaWait) {
        var settings = RedisTLSSettings()
        var wait = RedisReplicaWait()
        guard let query, !query.isEmpty else { return (settings, wait) }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let key = String(pair.prefix { $0 != "=" })
            let value = pair.contains("=") ? percentDecoded(String(pair.drop { $0 != "=" }.dropFirst())) : nil
            if key == "insecure" {
                settings.insecure = value.map(RedisTLSSettings.isTrue) ?? true
            } else if key == "wait" || key == "wait-timeout" {
                guard let value, !value.isEmpty else { throw Invalid(description: "'\(redacted(text))': '\(key)' needs a value (\(key)=…)") }
                if key == "wait" {
                    guard let n = RedisReplicaWait.replicas(value) else { throw Invalid(description: "'\(redacted(text))': wait=\(value): expected \(RedisReplicaWait.replicasForm)") }
                    wait.replicas = n
                } else {
                    guard let ms = RedisReplicaWait.timeout(value) else { throw Invalid(description: "'\(redacted(text))': wait-timeout=\(value): expected \(RedisReplicaWait.timeoutForm)") }
                    wait.timeoutMilliseconds = ms
                }
            } else if let path = RedisTLSSettings.setting(named: key) {
                guard let value, !value.isEmpty else { throw Invalid(description: "'\(redacted(text))': '\(key)' needs a value (\(key)=…)") }
                settings[keyPath: path] = value
            } else {
                let known = (RedisTLSSettings.queryKeys + ["insecure", "wait", "wait-timeout"]).joined(separator: ", ")
                throw Invalid(description: "'\(redacted(text))': unknown setting '\(key)' (known: \(known))")
            }
        }
        return (settings, wait)
    }

    /// This URL with the replicas to wait for from elsewhere: `options` (the
    /// command line) win over the URL's query, which wins over `environment`.
    public func withWait(options: RedisReplicaWait, environment: RedisReplicaWait) -> RedisURL {
        var url = self
        url.wait = options.over(wait).over(environment)
        return url
    }

    /// This URL with TLS settings from elsewhere: `options` (the command line) win
    /// over the URL's query, which wins over `environment`. Options on a plain
    /// `redis://` URL are refused (they ask for TLS); the environment's are ignored.
    public func withTLS(options: RedisTLSSettings, environment: RedisTLSSettings) throws(Invalid) -> RedisURL {
        guard let tls else {
            if options.isEmpty { return self }
            if isSentinel { throw Invalid(description: "'\(description)': --redis-* TLS options need a rediss-sentinel:// URL (redis-sentinel:// is plain text)") }
            throw Invalid(description: "'\(description)': --redis-* TLS options need a rediss:// URL (redis:// is plain text)")
        }
        var url = self
        let merged = options.over(tls).over(environment)
        if (merged.certificateFile == nil) != (merged.keyFile == nil) {
            throw Invalid(description: "'\(description)': a client certificate needs both --redis-cert and --redis-key")
        }
        url.tls = merged
        return url
    }

    /// The URL without its password or TLS settings, for messages.
    public var description: String {
        let credentials = password == nil ? "" : "\(user ?? ""):***@"
        if let masterName {
            return "\(tls == nil ? "redis" : "rediss")-sentinel://\(credentials)\(sentinels.map(\.description).joined(separator: ","))/\(masterName)/\(database)"
        }
        return "\(tls == nil ? "redis" : "rediss")://\(credentials)\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
    }

    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        let scheme = schemes.first { text.hasPrefix($0) } ?? ""
        return scheme + "***@" + text[text.index(after: at)...]
    }

    /// `%XX` sequences as the bytes they stand for; the text as it is when one is
    /// malformed or the bytes are not UTF-8 (as Foundation's `removingPercentEncoding`,
    /// which links ICU).
    static func percentDecoded(_ text: String) -> String {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                decoded.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) else { return text }
            decoded.append(high << 4 | low)
            index += 3
        }
        return String(validating: decoded, as: UTF8.self) ?? text
    }
}
