import CUtf8proc

/// How many terminal columns text takes, measured the way a terminal draws it:
/// by grapheme cluster (utf8proc's grapheme breaks, Unicode 15), each cluster as
/// wide as utf8proc's `charwidth` says, with the emoji rules terminals follow.
///
/// - East Asian wide and fullwidth characters take 2 columns (`长`, `Ａ`).
/// - An emoji sequence is one 2-column cluster: ZWJ sequences (👩‍👩‍👧), flags
///   (two regional indicators, 🇯🇵), skin tones (👍🏽), keycaps (`1️⃣`) and a
///   text-default symbol made emoji by U+FE0F (`❤️`).
/// - Combining marks and zero-width characters (U+200B, U+FE0F, ZWJ) add nothing:
///   they belong to the cluster before them. A cluster of only such characters
///   is 0 columns wide.
///
/// This is the one place the host measures text: layout, centring, truncation,
/// the renderer, the virtual terminal and `cdscript list` all ask it.
public enum DisplayWidth {
    /// The columns `text` takes.
    public static func of(_ text: String) -> Int {
        var total = 0
        forEachCluster(text) { _, width in total += width }
        return total
    }

    /// The grapheme clusters of `text` with the columns each takes.
    public static func clusters(_ text: String) -> [(cluster: String, width: Int)] {
        var result: [(String, Int)] = []
        forEachCluster(text) { result.append(($0, $1)) }
        return result
    }

    /// The columns one cluster takes (given as its scalars).
    public static func width(ofCluster scalars: some Collection<Unicode.Scalar>) -> Int {
        guard let first = scalars.first else { return 0 }
        var width = Int(utf8proc_charwidth(Int32(bitPattern: first.value)))
        if scalars.count == 1 { return max(0, width) }
        if isRegionalIndicator(first) { return 2 }  // a flag
        for scalar in scalars.dropFirst() {
            switch scalar.value {
            case 0xFE0F:
                // Emoji presentation: a keycap digit or a text-default symbol drawn as emoji.
                width = 2
            case 0x200D:
                // A ZWJ sequence is drawn as one emoji when it starts with one.
                if width >= 1, isEmoji(first) { width = 2 }
            case 0x1F3FB...0x1F3FF:
                width = 2  // skin tone modifier
            default:
                if width == 0 {
                    // A cluster that starts with a zero-width character (a lone
                    // combining mark, say) is as wide as what follows it, if anything.
                    width = Int(utf8proc_charwidth(Int32(bitPattern: scalar.value)))
                }
            }
        }
        return max(0, min(2, width))
    }

    /// `text` cut to at most `columns` columns at a cluster boundary, with `…`
    /// in the last column when anything was cut. Never half a wide character.
    public static func truncate(_ text: String, toColumns columns: Int, ellipsis: String = "…") -> String {
        guard columns > 0 else { return "" }
        let clusters = clusters(text)
        if clusters.reduce(0, { $0 + $1.width }) <= columns { return text }
        let room = columns - of(ellipsis)
        var result = ""
        var used = 0
        for (cluster, width) in clusters {
            if used + width > room { break }
            result += cluster
            used += width
        }
        return room >= 0 ? result + ellipsis : result
    }

    /// `text` followed by blanks up to `columns` columns (nothing added when it is wider).
    public static func padded(_ text: String, toColumns columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - of(text)))
    }

    /// Calls `body` with every grapheme cluster of `text` and its width, in order.
    static func forEachCluster(_ text: String, _ body: (String, Int) -> Void) {
        var state: Int32 = 0
        var current: [Unicode.Scalar] = []
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if let previous,
               utf8proc_grapheme_break_stateful(Int32(bitPattern: previous.value), Int32(bitPattern: scalar.value), &state) {
                emit(current, body)
                current.removeAll(keepingCapacity: true)
            }
            current.append(scalar)
            previous = scalar
        }
        if !current.isEmpty { emit(current, body) }
    }

    private static func emit(_ scalars: [Unicode.Scalar], _ body: (String, Int) -> Void) {
        var cluster = ""
        cluster.unicodeScalars.append(contentsOf: scalars)
        body(cluster, width(ofCluster: scalars))
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    private static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        let property = utf8proc_get_property(Int32(bitPattern: scalar.value))
        return Int(property?.pointee.boundclass ?? 0) == Int(UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC.rawValue)
    }
}
