import ArgumentParser
import CountdownCore
import FoundationEssentials
import RedisStore

/// The completions that need the binary at TAB time: the generated scripts run
/// `cdscript ---completion ...`, which calls these closures in-process.
extension CompletionKind {
    /// Stored ids, from the store named by `--store` / `--state-dir` already on the line.
    static var storedIDs: CompletionKind { storedIDs(.any) }

    /// The stored ids a command can act on (`pause` running ones, `resume` paused ones).
    static func storedIDs(_ states: StoredIDs.States) -> CompletionKind {
        .custom { words, index, _ in StoredIDs.sorted(StoredIDs.storeOptions(typed: Array(words.prefix(index))), states) }
    }

    /// Folders and test files (`*_spec.lua`, `*_test.lua`), as `cdscript test` finds them.
    static var testPaths: CompletionKind {
        .custom { _, _, prefix in PathCompletion.entries(under: prefix) { $0.hasSuffix("_spec.lua") || $0.hasSuffix("_test.lua") } }
    }

    /// Programs on PATH, for `timer --exec`.
    static var programs: CompletionKind {
        .custom { _, _, prefix in PathCompletion.programs(prefix: prefix) }
    }
}

/// The ids a store holds, for completion: never an error, never a message.
enum StoredIDs {
    /// Which countdowns a command acts on: offering others would only earn a refusal.
    enum States {
        /// Every id, unreadable ones too (`cancel` removes them, `watch` shows them).
        case any
        /// Running or paused (`append`).
        case unfinished
        /// Running (`pause`).
        case running
        /// Paused (`resume`).
        case paused

        func admits(_ state: StoredCountdown.State) -> Bool {
            switch self {
            case .any: true
            case .unfinished: state != .finished
            case .running: state == .running
            case .paused: state == .paused
            }
        }
    }

    /// `--store` and `--state-dir` among `words` (`--store URL` or `--store=URL`),
    /// as shell words: quotes around a value are removed.
    static func storeOptions(typed words: [String]) -> StoreOptions {
        var arguments: [String] = []
        for (index, word) in words.enumerated() {
            for name in ["--store", "--state-dir"] {
                if word == name, index + 1 < words.count {
                    arguments += [name, unquoted(words[index + 1])]
                } else if word.hasPrefix(name + "=") {
                    arguments += [name, unquoted(String(word.dropFirst(name.count + 1)))]
                }
            }
        }
        // The last one of each wins, as on a command line.
        return (try? StoreOptions.parse(arguments)) ?? StoreOptions()
    }

    /// The ids stored, sorted; none when the store cannot be read or the URL is bad.
    static func sorted(_ options: StoreOptions, _ states: States = .any) -> [String] {
        // openShared() reports a bad URL on stderr; a completion stays quiet.
        if let url = options.chosenRedisURL, (try? RedisURL(url)) == nil { return [] }
        guard let store = try? options.openShared(quiet: true), store.exists,
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
    static func unquoted(_ word: String) -> String {
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
enum PathCompletion {
    /// The folders and the files accepted by `accept` that start with `prefix`
    /// (relative to the working directory, or absolute, or under `~/`).
    static func entries(under prefix: String, accept: (String) -> Bool) -> [String] {
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
                // bash marks folders itself (complete -o filenames); fish and zsh go on into them.
                found.append(folderTyped + name + (CompletionShell.requesting == .bash ? "" : "/"))
            } else if accept(name) {
                found.append(folderTyped + name)
            }
        }
        return found.sorted()
    }

    /// The programs on PATH whose names start with `prefix`, or paths when it holds a `/`.
    static func programs(prefix: String) -> [String] {
        if prefix.contains("/") {
            return entries(under: prefix) { _ in true }
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
