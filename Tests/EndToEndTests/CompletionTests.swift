import Foundation
import RedisTestServer
import Testing

/// The completion scripts generated from the binary under test (scripts/completions:
/// swift-argument-parser's scripts plus completions/default-command.*), driven the way
/// each shell drives them: bash through the function `complete -p cdscript` names, with
/// COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT; fish through `complete -C`; zsh
/// through its completion system in an interactive zsh on a pseudo-terminal. `cdscript`
/// is found on PATH, as for people.
@Suite("Shell completion: generated from the binary; commands, script paths, test paths, stored ids")
struct CompletionTests {
    enum Shell: String, CaseIterable, CustomTestStringConvertible {
        case bash, fish, zsh
        var testDescription: String { rawValue }
    }

    /// The three scripts, generated once for the suite.
    static let generated = Result { try generate() }

    static func generate() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-completions-\(UUID().uuidString)")
        let result = try run("/usr/bin/env", [BinaryRunner.packageRoot.appendingPathComponent("scripts/completions").path, BinaryRunner.binary.path, dir.path],
                             in: FileManager.default.temporaryDirectory)
        guard result.status == 0 else { throw Failure(message: "scripts/completions failed: \(result.stderr)") }
        // zsh finds _cdscript on fpath, as installed.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("zsh"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("_cdscript"), to: dir.appendingPathComponent("zsh/_cdscript"))
        return dir
    }

    struct Failure: Error, CustomStringConvertible { let message: String; var description: String { message } }

    /// A folder with ./plugins, examples/flash_sale.lua, examples/flags.txt, a.lua and tests/.
    static func workspace() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-complete-\(UUID().uuidString)")
        let fm = FileManager.default
        for sub in ["plugins", "examples", "tests"] {
            try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for file in ["examples/flash_sale.lua", "examples/flags.txt", "a.lua", "tests/a_spec.lua", "tests/helper.lua"] {
            try Data().write(to: dir.appendingPathComponent(file))
        }
        return dir
    }

    /// Runs `executable` with `arguments` in `directory`, the binary's folder first on PATH.
    static func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = BinaryRunner.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HOME"] = directory.path  // no user's shell settings
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // stderr is small; read stdout to its end first, then stderr.
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    /// What `shell` offers for `words` (the last one is being completed, at its end):
    /// the matches, sorted, and what was printed on stderr.
    static func complete(_ shell: Shell, _ words: [String], in directory: URL) throws -> (offered: [String], stderr: String) {
        let scripts = try generated.get()
        let result: (status: Int32, stdout: String, stderr: String)
        switch shell {
        case .bash:
            // As bash splits the line: at COMP_WORDBREAKS' = and : too; the word being
            // completed is the part after the last one.
            let script = """
                source "$1"; COMP_LINE=$2; shift 2
                COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                cur=${COMP_WORDS[COMP_CWORD]}; [[ $cur == [=:] ]] && cur=
                function=$(complete -p cdscript | sed -E 's/.* -F ([^ ]+) .*/\\1/')
                "$function" "${COMP_WORDS[0]}" "$cur" "${COMP_WORDS[COMP_CWORD - 1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let pieces = words.flatMap(Self.bashPieces)
            result = try run("/usr/bin/timeout", ["20", "bash", "-c", script, "bash", scripts.appendingPathComponent("cdscript.bash").path,
                                                  words.joined(separator: " ")] + pieces, in: directory)
        case .fish:
            let script = "source $argv[1]; complete -C$argv[2] | string split -f1 \\t"
            result = try run("/usr/bin/timeout", ["20", "fish", "--no-config", "-c", script, scripts.appendingPathComponent("cdscript.fish").path, words.joined(separator: " ")], in: directory)
        case .zsh:
            let harness = BinaryRunner.packageRoot.appendingPathComponent("Tests/Support/complete-in-zsh.zsh").path
            result = try run("/usr/bin/timeout", ["20", "zsh", "-f", harness, scripts.appendingPathComponent("zsh").path, words.joined(separator: " ")], in: directory)
        }
        let lines = result.stdout.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        return (Set(lines).sorted(), result.stderr)
    }

    /// A word as bash's COMP_WORDS holds it: split at = and : (each one a word of its
    /// own), unless quoted.
    static func bashPieces(_ word: String) -> [String] {
        guard !word.hasPrefix("'"), !word.hasPrefix("\"") else { return [word] }
        var pieces: [String] = []
        var current = ""
        for character in word {
            if character == "=" || character == ":" {
                if !current.isEmpty { pieces.append(current) }
                pieces.append(String(character))
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty || pieces.isEmpty { pieces.append(current) }
        return pieces
    }

    /// The matches as each shell shows them: fish and zsh mark folders with a slash,
    /// zsh completes a path's last part only; here both are brought to bash's form.
    static func offered(_ shell: Shell, _ typed: [String], in directory: URL) throws -> [String] {
        let words = ["cdscript"] + typed
        var offered = try complete(shell, words, in: directory).offered
        if shell != .bash { offered = offered.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } }
        if shell == .zsh, let last = words.last, let slash = last.lastIndex(of: "/") {
            let folder = String(last[...slash])
            offered = offered.map { $0.hasPrefix(folder) ? $0 : folder + $0 }
        }
        return offered.sorted()
    }

    static let commandCases: [([String], [String])] = [
        (["plug"], ["plugins"]),
        (["t"], ["test", "timer"]),
        (["run", "examples/fl"], ["examples/flash_sale.lua"]),
        (["examples/fl"], ["examples/flash_sale.lua"]),
        (["ex"], ["examples"]),
        (["run", "--speed", "5", ""], ["a.lua", "examples", "plugins", "tests"]),
        (["a.lua", "--speed", "5", "ex"], ["examples"]),
        (["test", "tests/"], ["tests/a_spec.lua"]),
        (["test", "te"], ["tests"]),
        (["help", "ca"], ["cancel"]),
        (["pa"], ["pause"]),
        (["timer", "--ti"], ["--title"]),
        (["list", "--j"], ["--json"]),
        (["test", "--output", "j"], ["json", "junit"]),
        (["run", "--plugin-path", "p"], ["plugins"]),
        (["--store", "redis://x", "list", "--j"], ["--json"]),
    ]

    @Test("commands by name, *.lua and folders for scripts, specs and folders for test", arguments: Shell.allCases, commandCases)
    func completes(shell: Shell, example: ([String], [String])) throws {
        #expect(try Self.offered(shell, example.0, in: Self.workspace()) == example.1)
    }

    @Test("`cdscript --store URL <TAB>` offers the commands (and scripts), not the script's arguments", arguments: Shell.allCases)
    func commandsAfterStore(shell: Shell) throws {
        let offered = try Self.offered(shell, ["--store", "redis://x", ""], in: Self.workspace())
        let commands = try Self.commandsAndOptionNames().map(\.command)
        #expect(commands.contains("list") && commands.contains("help"))
        for command in commands { #expect(offered.contains(command), "\(command) in \(offered)") }
        // A script may come there too; the folders and other files (a script's arguments) not.
        #expect(offered.filter { !$0.hasPrefix("-") && !commands.contains($0) } == ["a.lua"])
        // And the binary takes what was offered: store options before a command's name.
        let dir = try Self.workspace()
        let list = try BinaryRunner.run(["--state-dir", dir.appendingPathComponent("state").path, "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.hasPrefix("no stored countdowns"))
        let joined = try BinaryRunner.run(["--state-dir=" + dir.appendingPathComponent("state").path, "list", "--json"])
        #expect(joined.status == 0 && joined.stdout == "[]\n", "\(joined)")
    }

    @Test("timer --exec completes the programs on PATH", arguments: Shell.allCases)
    func programs(shell: Shell) throws {
        let offered = try Self.offered(shell, ["timer", "5", "--exec", "bas"], in: Self.workspace())
        #expect(offered.contains("bash") && offered.contains("basename"), "\(offered)")
        #expect(offered.allSatisfy { $0.hasPrefix("bas") }, "\(offered)")
    }

    /// Stores tea and toast through `cdscript run` with `store` (`--state-dir DIR` or `--store URL`).
    /// (`cdscript start` returns once they are stored: no signal sent after a guessed
    /// time, which a loaded machine's slow start outran.)
    static func storeTeaAndToast(_ store: [String]) throws {
        for id in ["tea", "toast"] {
            let started = try BinaryRunner.run(["start", id, "300"] + store)
            #expect(started.status == 0, "\(started.stderr)")
        }
    }

    @Test("stored ids for cancel, pause, resume, append and watch, from --state-dir on the line, before or after the command", arguments: Shell.allCases)
    func ids(shell: Shell) throws {
        let dir = try Self.workspace()
        let state = dir.appendingPathComponent("state dir").path
        try Self.storeTeaAndToast(["--state-dir", state])
        // As typed: quoted for the shell.
        let typed = "'\(state)'"
        for command in ["cancel", "pause", "append", "watch"] {
            #expect(try Self.offered(shell, [command, "--state-dir", typed, "t"], in: dir) == ["tea", "toast"], "\(command)")
            #expect(try Self.offered(shell, [command, "--state-dir", typed, "toa"], in: dir) == ["toast"], "\(command)")
            #expect(try Self.offered(shell, ["--state-dir", typed, command, "t"], in: dir) == ["tea", "toast"], "\(command)")
        }
        // An unreadable store completes nothing and prints nothing.
        let damaged = dir.appendingPathComponent("damaged")
        try FileManager.default.createDirectory(at: damaged, withIntermediateDirectories: true)
        try Data("not a database".utf8).write(to: damaged.appendingPathComponent("state.sqlite"))
        let completed = try Self.complete(shell, ["cdscript", "cancel", "--state-dir", damaged.path, ""], in: dir)
        #expect(completed.offered == [])
        #expect(completed.stderr == "")
    }

    @Test("ids a command can act on: pause running ones, resume paused ones, append unfinished ones; cancel and watch every one", arguments: Shell.allCases)
    func idsByState(shell: Shell) throws {
        let dir = try Self.workspace()
        let state = dir.appendingPathComponent("state").path
        let script = try BinaryRunner.script("""
            countdown.start{ id = "running", seconds = 300, persist = true }
            countdown.start{ id = "resting", seconds = 300, persist = true }:pause()
            countdown.start{ id = "rung", seconds = 0.2, persist = true }
            """)
        _ = try BinaryRunner.run(["run", "--state-dir", state, "--plain", script], signal: SIGINT, signalAfter: 1)
        let cases: [(String, [String])] = [
            ("pause", ["running"]), ("resume", ["resting"]), ("append", ["resting", "running"]),
            ("cancel", ["resting", "rung", "running"]), ("watch", ["resting", "rung", "running"]),
        ]
        for (command, expected) in cases {
            #expect(try Self.offered(shell, [command, "--state-dir", state, "r"], in: dir) == expected, "\(shell): \(command)")
        }
    }

    @Test("busted's options that `test` refuses whatever their value are not offered", arguments: Shell.allCases)
    func refusedOptions(shell: Shell) throws {
        let offered = try Self.offered(shell, ["test", "-"], in: try Self.workspace())
        #expect(offered.contains("--tap"), "\(offered)")
        #expect(!offered.contains("--lazy") && !offered.contains("--enable-sound") && !offered.contains("--no-lazy"), "\(offered)")
    }

    @Test("stored ids from the Redis store of --store on the line; a bad URL completes nothing, quietly")
    func redisIDs() throws {
        let server = try RedisServer()
        defer { server.stop() }
        let dir = try Self.workspace()
        try Self.storeTeaAndToast(["--store", server.url])
        let ids = try BinaryRunner.run(["__complete-ids", "--store", server.url])
        #expect(ids.stdout == "tea\ntoast\n")
        for shell in Shell.allCases {
            #expect(try Self.offered(shell, ["pause", "--store", server.url, "t"], in: dir) == ["tea", "toast"], "\(shell)")
            #expect(try Self.offered(shell, ["--store=\(server.url)", "cancel", "toa"], in: dir) == ["toast"], "\(shell)")
            let bad = try Self.complete(shell, ["cdscript", "cancel", "--store", "http://nowhere", ""], in: dir)
            #expect(bad.offered == [] && bad.stderr == "", "\(shell): \(bad)")
        }
    }

    /// Every command ArgumentParser shows, with the names of its options and flags,
    /// from the binary's own description of itself.
    static func commandsAndOptionNames() throws -> [(command: String, names: [String])] {
        let dump = try BinaryRunner.run(["--experimental-dump-help"])
        let json = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any]
        let root = try #require(json?["command"] as? [String: Any])
        let subcommands = try #require(root["subcommands"] as? [[String: Any]])
        return subcommands.filter { $0["shouldDisplay"] as? Bool ?? true }.map { command in
            let arguments = (command["arguments"] as? [[String: Any]] ?? []).filter { $0["shouldDisplay"] as? Bool ?? true }
            let names = arguments.flatMap { $0["names"] as? [[String: Any]] ?? [] }.compactMap { name -> String? in
                guard let text = name["name"] as? String else { return nil }
                return (name["kind"] as? String == "long" ? "--" : "-") + text
            }
            return (command["commandName"] as? String ?? "", names)
        }
    }

    @Test("every option of every command (read from --experimental-dump-help) is offered after `cdscript COMMAND -`", arguments: Shell.allCases)
    func everyOption(shell: Shell) throws {
        let commands = try Self.commandsAndOptionNames()
        #expect(commands.count >= 12)
        #expect(commands.contains { $0.command == "test" && $0.names.contains("--update-snapshots") && $0.names.contains("-o") })
        let dir = try Self.workspace()
        for (command, names) in commands where !names.isEmpty {
            let offered = Set(try Self.offered(shell, [command, "-"], in: dir))
            for name in names { #expect(offered.contains(name), "\(shell): cdscript \(command) \(name) in \(offered.sorted())") }
        }
        // The default command: run's options in the first place.
        let run = try #require(commands.first { $0.command == "run" })
        let offered = Set(try Self.offered(shell, ["-"], in: dir))
        for name in run.names { #expect(offered.contains(name), "\(shell): cdscript \(name)") }
    }
}
