/// A file path's parts, read as text the way `NSString`'s path methods read
/// them (trailing slashes ignored, `/` kept as the root), for the few places
/// that split or join paths: those methods are not in `FoundationEssentials`,
/// and `URL` would resolve a relative path against the current folder.
public enum PathText {
    /// The path without its last component: `"/a/b"` gives `"/a"`, `"/a"` gives
    /// `"/"`, `"a"` gives `""` (as `deletingLastPathComponent`).
    public static func folder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return withoutTrailingSlashes(String(trimmed[..<slash]))
    }

    /// The last component: `"/a/b/"` gives `"b"`, `"/"` gives `"/"` (as `lastPathComponent`).
    public static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `name` inside `folder`, with one slash between them (as `appendingPathComponent`).
    public static func joining(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        return withoutTrailingSlashes(folder) == "/" ? "/" + name : withoutTrailingSlashes(folder) + "/" + name
    }

    /// `path` made absolute against `directory` (itself absolute), with `.` and
    /// `..` resolved as text and no symbolic link followed (as `URL`'s
    /// `standardizedFileURL.path`, which cost a run about 250,000 instructions):
    /// `("../b/./c", in: "/x/y")` gives `"/x/b/c"`; `..` at the root stays at the root.
    public static func absolute(_ path: String, in directory: String) -> String {
        let full = path.hasPrefix("/") ? path : directory + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        // Appended one by one, each part made a String first: `joined(separator:)`
        // on substrings, and appending a substring to a string, are generic,
        // and looked up their conformances at run time (0.19 million
        // instructions at their first use, every run).
        guard !parts.isEmpty else { return "/" }
        var joined = ""
        for part in parts {
            joined.append("/")
            joined.append(String(part))
        }
        return joined
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.last == "/" { text.removeLast() }
        return String(text)
    }
}
