import CountdownCore
import FoundationEssentials
import RedisStore

/// The ids a store holds, for completion: never an error, never a message.
public enum StoredIDs {
    /// Which countdowns a command acts on: offering others would only earn a refusal.
    public enum States: Sendable {
        /// Every id, unreadable ones too (`cancel` removes them, `watch` shows them).
        case any
        /// Running or paused (`append`).
        case unfinished
        /// Running (`pause`).
        case running
        /// Paused (`resume`).
        case paused

        public func admits(_ state: StoredCountdown.State) -> Bool {
            switch self {
            case .any: true
            case .unfinished: state != .finished
            case .running: state == .running
            case .paused: state == .paused
            }
        }
    }

    /// The store that `--store` and `--state-dir` among `words` name (`--store URL`
    /// or `--store=URL`), as shell words: quotes around a value are removed.
    public static func location(typed words: [String]) -> StoreLocation {
        var location = StoreLocation()
        for (index, word) in words.enumerated() {
            for name in ["--store", "--state-dir"] {
                let value: String
                if word == name, index + 1 < words.count {
                    value = unquoted(words[index + 1])
                } else if word.hasPrefix(name + "=") {
                    value = unquoted(String(word.dropFirst(name.count + 1)))
                } else {
                    continue
                }
                // The last one of each wins, as on a command line.
                if name == "--store" { location.store = value } else { location.stateDir = value }
            }
        }
        return location
    }

    /// The ids stored, sorted; none when the store cannot be read or the URL is bad.
    public static func sorted(_ location: StoreLocation, _ states: States = .any) -> [String] {
        // open() reports a bad URL on stderr; a completion stays quiet.
        if let url = location.chosenRedisURL, (try? RedisURL(url)) == nil { return [] }
        guard let store = try? location.open(quiet: true), store.exists,
              let listing = try? store.persistence.listing() else { return [] }
        var ids: [String]
        if states == .any {
            // Unreadable ones too: `cancel` removes them by id.
            ids = listing.countdowns.map(\.id) + listing.unreadable.filter(\.idIsText).map(\.id)
        } else {
            guard let now = try? store.now() else { return [] }
            ids = listing.countdowns.filter { states.admits($0.effectiveState(at: now)) }.map(\.id)
        }
        // An id with a control character is left out: the shell would put it on the
        // command line raw (an escape sequence for the terminal), and its escaped
        // form names no countdown. `list` shows it escaped.
        return ids.filter { !VisibleText.hasControls($0) }.sorted()
    }

    /// A shell word as typed, without the quotes and backslashes that only quote.
    public static func unquoted(_ word: String) -> String {
        var result = ""
        var quote: Character?
        var escaped = false
        for character in word {
            if escaped { result.append(character); escaped = false; continue }
            switch (quote, character) {
            case (nil, "\\"), ("\"", "\\"): escaped = true
            case (nil, "'"), (nil, "\""): quote = character
            case ("'", "'"), ("\"", "\""): quote = nil
            default: result.append(character)
            }
        }
        return result
    }
}

/// File names for the completions the shells' own globs cannot express.
public enum PathCompletion {
    /// The folders and the files accepted by `accept` that start with `prefix`
    /// (relative to the working directory, or absolute, or under `~/`); a folder
    /// ends with `/` when `markFolders` (bash marks them itself, fish and zsh go on into them).
    public static func entries(under prefix: String, markFolders: Bool = true, accept: (String) -> Bool) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folderTyped = slash.map { String(prefix[...$0]) } ?? ""
        let namePrefix = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        var folder = folderTyped.isEmpty ? "." : folderTyped
        if folder.hasPrefix("~/") { folder = FileManager.default.homeDirectoryForCurrentUser.path + folder.dropFirst() }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var found: [String] = []
        for name in names where name.hasPrefix(namePrefix) && (namePrefix.hasPrefix(".") || !name.hasPrefix(".")) {
            let path = PathText.joining(folder, name)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            if FileKind.isDirectory(at: path) {
                found.append(folderTyped + name + (markFolders ? "/" : ""))
            } else if accept(name) {
                found.append(folderTyped + name)
            }
        }
        return found.sorted()
    }

    /// The programs on PATH whose names start with `prefix`, or paths when it holds a `/`.
    public static func programs(prefix: String, markFolders: Bool = true) -> [String] {
        if prefix.contains("/") {
            return entries(under: prefix, markFolders: markFolders) { _ in true }
        }
        let folders = (ProcessEnvironment.value("PATH") ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        var names = Set<String>()
        for folder in folders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) {
                if FileManager.default.isExecutableFile(atPath: folder + "/" + name) { names.insert(name) }
            }
        }
        return names.sorted()
    }
}
