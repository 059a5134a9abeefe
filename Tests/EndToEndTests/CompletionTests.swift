import Foundation
import Testing

/// The completion scripts in completions/, driven the way each shell drives them.
@Suite("Shell completion: commands, script paths, test paths, stored ids")
struct CompletionTests {
    static let completions = BinaryRunner.packageRoot.appendingPathComponent("completions")

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

    /// Runs `shell` with `script` in `directory`; returns stdout.
    static func shell(_ shell: String, _ script: String, in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [shell, "-c", script]
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The words bash offers for a command line ending at the cursor (the last word is
    /// being completed), sorted.
    static func bash(_ words: [String], in directory: URL) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = """
            source '\(completions.path)/cdscript.bash'
            COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
            _cdscript
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        return Set(try shell("bash", script, in: directory).split(separator: "\n").map(String.init)).sorted()
    }

    static let commandCases: [([String], [String])] = [
        (["plug"], ["plugins"]),
        (["t"], ["test", "timer"]),
        (["run", "examples/fl"], ["examples/flash_sale.lua"]),
        (["examples/fl"], ["examples/flash_sale.lua"]),
        (["ex"], ["examples"]),
        (["run", "--speed", "5", ""], ["a.lua", "examples", "plugins", "tests"]),
        (["test", "tests/"], ["tests/a_spec.lua"]),
        (["help", "ca"], ["cancel"]),
        (["pa"], ["pause"]),
        (["timer", "--ti"], ["--title"]),
        (["list", "--j"], ["--json"]),
    ]

    @Test("bash: commands by name, *.lua and folders for scripts, specs for test", arguments: commandCases)
    func bashCompletes(typed: [String], expected: [String]) throws {
        #expect(try Self.bash(["cdscript"] + typed, in: Self.workspace()) == expected)
    }

    @Test("bash: stored ids for cancel, pause, resume, append and watch, from the store on the line")
    func bashIDs() throws {
        let dir = try Self.workspace()
        let state = dir.appendingPathComponent("state").path
        let script = try BinaryRunner.script("""
            countdown.start{ id = "tea", seconds = 300, persist = true }
            countdown.start{ id = "toast", seconds = 300, persist = true }
            """)
        _ = try BinaryRunner.run(["run", "--state-dir", state, script], signal: SIGINT, signalAfter: 0.5)
        let bin = BinaryRunner.binary.path
        for command in ["cancel", "pause", "resume", "append", "watch"] {
            #expect(try Self.bash([bin, command, "--state-dir", state, "t"], in: dir) == ["tea", "toast"], "\(command)")
            #expect(try Self.bash([bin, command, "--state-dir", state, "toa"], in: dir) == ["toast"], "\(command)")
        }
        // fish: the same ids through complete -C.
        let fish = try Self.shell("fish", "source '\(Self.completions.path)/cdscript.fish'; complete -C'\(bin) pause --state-dir \(state) t'", in: dir)
        #expect(fish.split(separator: "\n").map(String.init).sorted() == ["tea", "toast"])
        // An unreadable store completes nothing and prints nothing.
        let damaged = dir.appendingPathComponent("damaged")
        try FileManager.default.createDirectory(at: damaged, withIntermediateDirectories: true)
        try Data("not a database".utf8).write(to: damaged.appendingPathComponent("state.sqlite"))
        #expect(try Self.bash([bin, "cancel", "--state-dir", damaged.path, ""], in: dir) == [])
    }

    @Test("fish: the same answers through complete -C", arguments: commandCases)
    func fishCompletes(typed: [String], expected: [String]) throws {
        let line = (["cdscript"] + typed).joined(separator: " ")
        let script = "source '\(Self.completions.path)/cdscript.fish'; complete -C'\(line)' | string split -f1 \\t"
        let offered = Set(try Self.shell("fish", script, in: Self.workspace()).split(separator: "\n").map(String.init))
        // fish marks folders with a trailing slash.
        #expect(offered.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }.sorted() == expected)
    }

    @Test("zsh: the function parses and picks commands over a folder of the same name")
    func zsh() throws {
        // compadd, _describe and _files work only inside zsh's completion widgets; they are
        // replaced by recorders here, so this checks the script's own decisions.
        func offered(_ words: [String]) throws -> String {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let script = """
                compadd() { print -r -- "compadd $*" }
                _describe() { local name=${@[-1]}; local -a named; named=("${(@P)name}"); print -r -- describe ${named%%:*} }
                _files() { print -r -- "files $*" }
                _directories() { print -r -- "directories" }
                _command_names() { print -r -- "command_names" }
                source '\(Self.completions.path)/_cdscript' 2>/dev/null
                words=(\(quoted)); CURRENT=${#words}; PREFIX=${words[-1]}
                _cdscript
                """
            return try Self.shell("zsh", script, in: Self.workspace())
        }
        #expect(try offered(["cdscript", "plug"]).contains("describe run test list cancel clear plugins"))
        #expect(try !offered(["cdscript", "plug"]).contains("files"))
        #expect(try offered(["cdscript", "examples/fl"]).contains("files -g *.lua"))
        #expect(try offered(["cdscript", "run", ""]).contains("files -g *.lua"))
        #expect(try offered(["cdscript", "test", ""]).contains("files -g *_(spec|test).lua"))
        #expect(try offered(["cdscript", "timer", "5", "--exec", ""]).contains("command_names"))
    }
}
