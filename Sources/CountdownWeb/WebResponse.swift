import CountdownCore
import NIOHTTP1

/// A whole response, before it is written: a status, a content type and a body.
struct WebResponse {
    var status: HTTPResponseStatus
    var contentType: String
    var body: [UInt8]
    var headers: [(String, String)] = []

    /// JSON text.
    static func json(_ text: String, status: HTTPResponseStatus = .ok) -> WebResponse {
        WebResponse(status: status, contentType: "application/json; charset=utf-8", body: Array(text.utf8))
    }

    /// An error: `{"error": message}`, the message as the command line words it.
    static func error(_ status: HTTPResponseStatus, _ message: String) -> WebResponse {
        var text = "{\"error\":"
        CountdownJSON.appendString(message, to: &text)
        text += "}\n"
        return .json(text, status: status)
    }

    static func unauthorized(_ message: String) -> WebResponse {
        var response = error(.unauthorized, message)
        response.headers.append(("WWW-Authenticate", "Bearer"))
        return response
    }

    /// The headers every response carries: the page's script and styles come
    /// from this server only (no inline script, no other origin), content types
    /// are not guessed, and no page elsewhere may frame these ones.
    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]

    /// The head to send for this response.
    func head(version: HTTPVersion, keepAlive: Bool) -> HTTPResponseHead {
        var fields = HTTPHeaders()
        fields.add(name: "Content-Type", value: contentType)
        fields.add(name: "Content-Length", value: String(body.count))
        for (name, value) in Self.securityHeaders { fields.add(name: name, value: value) }
        for (name, value) in headers { fields.add(name: name, value: value) }
        fields.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        return HTTPResponseHead(version: version, status: status, headers: fields)
    }
}
