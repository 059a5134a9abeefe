/// A request's target (`/c/tea%20time?format=...`) split into decoded path
/// segments and query parameters. Decoding is strict: a `%` not followed by two
/// hex digits, or bytes that are not UTF-8, make the target unreadable (400),
/// never a guess; a decoded `/` stays inside its segment (`%2F` is part of an id).
struct RequestTarget: Equatable {
    var segments: [String]
    var query: [String: String]

    init?(_ target: String) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts[0]
        guard path.hasPrefix("/") else { return nil }
        var segments: [String] = []
        for raw in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let segment = Self.percentDecoded(raw, plusIsSpace: false) else { return nil }
            segments.append(segment)
        }
        // "/" is the root, not one empty segment; a trailing slash is not a segment either.
        if segments.last == "" { segments.removeLast() }
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let key = Self.percentDecoded(kv[0], plusIsSpace: true),
                      let value = Self.percentDecoded(kv.count > 1 ? kv[1] : "", plusIsSpace: true) else { return nil }
                if query[key] == nil { query[key] = value }
            }
        }
        self.segments = segments
        self.query = query
    }

    /// `text` with its `%XX` escapes decoded; nil when one is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
