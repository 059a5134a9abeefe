/// Finding the primary of a `redis-sentinel://` URL.
extension RedisConnection {
    /// Asks each sentinel in turn for the primary named `name`, connects to the
    /// address it gives, and keeps that connection only when the server says it is
    /// a primary (`ROLE`): a sentinel that is down, or has not seen a failover yet
    /// while the others have, is passed over.
    func connectToPrimary(named name: String, timeoutMilliseconds: Int) throws(RedisError) {
        var reasons: [String] = []
        for sentinel in url.sentinels {
            do throws(RedisError) {
                let (host, port) = try Self.primary(named: name, askingSentinel: sentinel, tls: url.tls, timeoutMilliseconds: timeoutMilliseconds)
                try open(host: host, port: port, timeoutMilliseconds: timeoutMilliseconds)
                if try isPrimary() { return }
                close()
                reasons.append("sentinel \(sentinel) names \(host):\(port), which is not a primary")
            } catch {
                close()
                reasons.append("sentinel \(sentinel): \(error.message)")
            }
        }
        throw RedisError(connectionLost: true, message: "cannot connect to \(url): no primary named \(name): \(reasons.joined(separator: "; "))")
    }

    /// What one sentinel says the primary's address is; over TLS with `tls`
    /// (a `rediss-sentinel://` store's settings).
    static func primary(named name: String, askingSentinel sentinel: RedisURL.Endpoint, tls: RedisTLSSettings?,
                        timeoutMilliseconds: Int) throws(RedisError) -> (host: String, port: Int) {
        let connection = try RedisConnection(RedisURL(sentinel: sentinel, tls: tls), timeoutMilliseconds: timeoutMilliseconds)
        defer { connection.close() }
        let reply = try connection.command(["SENTINEL", "get-master-addr-by-name", name])
        if case .array(let parts) = reply, parts.count == 2, let host = parts[0].string, let port = parts[1].string.flatMap({ Int($0) }) {
            return (host, port)
        }
        if case .error(let e) = reply { throw RedisError(connectionLost: true, message: e) }
        throw RedisError(connectionLost: true, message: "knows no primary named \(name)")
    }

    /// Whether the server this connection reached is a primary now.
    private func isPrimary() throws(RedisError) -> Bool {
        guard case .array(let parts) = try command(["ROLE"]) else { return false }
        return parts.first?.string == "master"
    }
}
