import ArgumentParser

/// A HOST:PORT option (`serve --listen`, `run --serve`): `[::1]:8765` keeps its
/// brackets out of the host; port 0 asks for any free port.
public enum ListenAddress {
    public static func parse(_ text: String, option: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("\(option) must be HOST:PORT, such as 127.0.0.1:8765 or 0.0.0.0:8080, got '\(text)'")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("\(option) needs a host before the port, such as 127.0.0.1:\(port)") }
        return (host, port)
    }
}
