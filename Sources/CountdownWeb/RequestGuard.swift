import NIOHTTP1

/// Who may ask what, checked before a request reaches a route.
///
/// - Host must name this server: the listen address, a loopback name, or a name
///   configured (`allowedHosts`), with or without the port. A page on another
///   site whose name was made to resolve here (DNS rebinding) sends its own name.
/// - Origin, when a browser sends one, must be this server's own origin, so a
///   page elsewhere cannot drive the API through a visitor's browser (CSRF).
/// - Control (POST) needs the bearer token; reads need it unless public.
struct RequestGuard {
    let configuration: ServerConfiguration
    /// The port actually bound (the configured one may be 0).
    let port: Int

    /// The names a Host header may carry, lowercased, without the port.
    var hostNames: Set<String> {
        var names: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        names.insert(Self.bracketed(configuration.host.lowercased()))
        for name in configuration.allowedHosts { names.insert(Self.bracketed(name.lowercased())) }
        return names
    }

    /// Nil when the Host (and Origin, if any) may be served; else the refusal.
    func checkOrigin(_ headers: HTTPHeaders) -> WebResponse? {
        let hosts = headers["host"]
        guard hosts.count == 1, let host = hosts.first, isOwnAuthority(host) else {
            return .error(.forbidden, "the Host header does not name this server")
        }
        let origins = headers["origin"]
        if origins.count > 1 { return .error(.forbidden, "more than one Origin header") }
        if let origin = origins.first {
            let prefix = "http://"
            guard origin.lowercased().hasPrefix(prefix), isOwnAuthority(String(origin.dropFirst(prefix.count))) else {
                return .error(.forbidden, "requests from other sites are not accepted (Origin \(origin.prefix(100)))")
            }
        }
        return nil
    }

    /// Nil when the request carries the control token.
    func checkControl(_ headers: HTTPHeaders) -> WebResponse? {
        hasToken(headers, query: nil) ? nil : .unauthorized("control needs the token: Authorization: Bearer TOKEN")
    }

    /// Nil when reads are public, or the request carries the token (in the
    /// Authorization header, or as `token=` in the query for an EventSource, which cannot send headers).
    func checkRead(_ headers: HTTPHeaders, query: [String: String]) -> WebResponse? {
        if configuration.readsArePublic || hasToken(headers, query: query) { return nil }
        return .unauthorized("reading needs the token: Authorization: Bearer TOKEN")
    }

    private func hasToken(_ headers: HTTPHeaders, query: [String: String]?) -> Bool {
        let given: String
        if let header = headers["authorization"].first, header.lowercased().hasPrefix("bearer ") {
            given = String(header.dropFirst("bearer ".count)).trimmingSpaces()
        } else if let token = query?["token"] {
            given = token
        } else {
            return false
        }
        return Self.constantTimeEqual(given, configuration.controlToken)
    }

    /// `host[:port]` naming this server.
    private func isOwnAuthority(_ authority: String) -> Bool {
        var name = authority.lowercased()
        var portText: Substring?
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            let rest = name[name.index(after: close)...]
            if rest.hasPrefix(":") { portText = rest.dropFirst() } else if !rest.isEmpty { return false }
            name = String(name[...close])
        } else if let colon = name.lastIndex(of: ":") {
            portText = name[name.index(after: colon)...]
            name = String(name[..<colon])
        }
        if let portText, Int(portText) != port { return false }
        return hostNames.contains(name)
    }

    private static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// Compares without stopping at the first difference, so the time taken does
    /// not tell how much of a guessed token was right.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0 && !y.isEmpty
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
