import Foundation

/// The examples of a Markdown page (README.md, docs/*.md), run with the binary under test
/// so that a page whose example breaks fails the suite (DocsExamplesTests).
///
/// A fenced block's info string says what is done with it:
///
///     ```lua                 a whole script: run on the virtual clock by `cdscript test`
///                            (Fixtures/docs/run_example_spec.lua: `load_script`, then
///                            `clock.run_all`); it must load and every countdown it starts
///                            must end without an error
///     ```lua spec            a test file: `cdscript test FILE` must pass
///     ```lua fragment        only compiled: a part of something the text around it shows (it
///                            uses names it does not define), or, with file=, a script that a
///                            `console run` block after it runs (one that ends with os.exit)
///     ```lua file=PATH       (with any of the above) also written to PATH in the page's folder,
///                            for the blocks after it: a module, a plugin, a script a spec
///                            loads, a spec that `cdscript test` finds
///     ```console run         each `$ COMMAND` line is run by bash in the page's folder, with
///                            `cdscript` the binary under test; the lines after it, up to the
///                            next `$`, are its exact standard output, and it must exit 0
///
/// Every `lua` block is compiled with `luac5.4 -p` first. Other blocks (```sh, ```console
/// without `run`, ```text, ```, indented ones) are not run; a word in a `lua` or `console`
/// info string that is none of the above is a problem, so a typo cannot turn an example off.
/// Each page runs in a temporary folder of its own, with a link `examples` to the
/// repository's examples, its own state folder (XDG_STATE_HOME) and no store from the
/// environment; its blocks run in the order of the page and share that folder.
struct DocsExamples {
    struct Block {
        let line: Int
        let language: String
        let words: [String]
        let text: String
    }

    static let root = BinaryRunner.packageRoot

    /// README.md and every page under docs/, as paths relative to the repository.
    static var pages: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// The fenced blocks of a page, in order (fences may be indented, as in a list item).
    static func blocks(of markdown: String) -> [Block] {
        var blocks: [Block] = []
        var open: (line: Int, indent: Int, info: [String], lines: [String])?
        for (index, raw) in markdown.components(separatedBy: "\n").enumerated() {
            let trimmed = raw.drop { $0 == " " }
            let indent = raw.count - trimmed.count
            if var current = open {
                if trimmed.hasPrefix("```") && trimmed.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append(Block(line: current.line, language: current.info.first ?? "", words: Array(current.info.dropFirst()),
                                        text: current.lines.joined(separator: "\n") + "\n"))
                    open = nil
                } else {
                    current.lines.append(String(raw.dropFirst(min(indent, current.indent))))
                    open = current
                }
            } else if trimmed.hasPrefix("```") {
                let info = trimmed.dropFirst(3).split(separator: " ").map(String.init)
                open = (index + 1, indent, info, [])
            }
        }
        return blocks
    }

    /// Links of `page` to a page or a heading that does not exist (`[text](file.md#heading)`,
    /// `[text](#heading)`, relative to the page; web addresses are not followed). Headings
    /// become anchors as GitHub makes them: lower case, punctuation dropped, spaces as `-`.
    static func brokenLinks(ofPage page: String) throws -> [String] {
        let url = root.appendingPathComponent(page)
        let text = try String(contentsOf: url, encoding: .utf8)
        let prose = text.replacingOccurrences(of: "(?s)```.*?```", with: "", options: .regularExpression)
        let link = try NSRegularExpression(pattern: "\\]\\(([^)\\s]+)\\)")
        var broken: [String] = []
        for match in link.matches(in: prose, range: NSRange(prose.startIndex..., in: prose)) {
            let target = String(prose[Range(match.range(at: 1), in: prose)!])
            if target.hasPrefix("http:") || target.hasPrefix("https:") || target.hasPrefix("mailto:") { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let file = parts[0].isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
            guard FileManager.default.fileExists(atPath: file.path) else { broken.append("\(page): no file for \(target)"); continue }
            if parts.count == 2, file.pathExtension == "md", !(try anchors(of: file)).contains(parts[1]) {
                broken.append("\(page): no heading for \(target)")
            }
        }
        return broken
    }

    private static func anchors(of file: URL) throws -> Set<String> {
        let text = try String(contentsOf: file, encoding: .utf8)
        let prose = text.replacingOccurrences(of: "(?s)```.*?```", with: "", options: .regularExpression)
        return Set(prose.components(separatedBy: "\n").filter { $0.hasPrefix("#") }.map { line in
            line.drop { $0 == "#" }.dropFirst().lowercased()
                .filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
                .replacingOccurrences(of: " ", with: "-")
        })
    }

    /// Runs every example of `page` (a path relative to the repository, or an absolute one);
    /// returns one message per problem, empty when every example works.
    static func problems(ofPage page: String) throws -> [String] {
        let url = page.hasPrefix("/") ? URL(fileURLWithPath: page) : root.appendingPathComponent(page)
        let markdown = try String(contentsOf: url, encoding: .utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("bin"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("examples"),
                                                   withDestinationURL: root.appendingPathComponent("examples"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("bin/cdscript"), withDestinationURL: BinaryRunner.binary)
        var problems: [String] = []
        for (number, block) in blocks(of: markdown).enumerated() {
            let place = "\(url.lastPathComponent):\(block.line)"
            for problem in try run(block, number: number, in: folder) { problems.append("\(place): \(problem)") }
        }
        return problems
    }

    private static func run(_ block: Block, number: Int, in folder: URL) throws -> [String] {
        switch block.language {
        case "lua": return try runLua(block, number: number, in: folder)
        case "console" where block.words == ["run"]: return try runConsole(block, in: folder)
        case "console" where !block.words.isEmpty: return ["unknown words in ```console \(block.words.joined(separator: " ")) (only `run`)"]
        default: return []
        }
    }

    private static func runLua(_ block: Block, number: Int, in folder: URL) throws -> [String] {
        var kind = "script"
        var file: String?
        for word in block.words {
            if word == "spec" || word == "fragment" { kind = word }
            else if word.hasPrefix("file=") { file = String(word.dropFirst(5)) }
            else { return ["unknown word '\(word)' in ```lua (spec, fragment, file=PATH)"] }
        }
        let path = folder.appendingPathComponent(file ?? (kind == "spec" ? "example_\(number)_spec.lua" : "example_\(number).lua"))
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try block.text.write(to: path, atomically: true, encoding: .utf8)
        defer { if file == nil { try? FileManager.default.removeItem(at: path) } }

        let compiled = try BinaryRunner.run(["-p", path.path], executable: URL(fileURLWithPath: "/usr/bin/luac5.4"))
        if compiled.status != 0 { return ["does not compile: \(compiled.stderr)"] }
        switch kind {
        case "spec":
            let result = try cdscript(["test", path.path], in: folder)
            return result.status == 0 ? [] : ["the spec fails (exit \(result.status)):\n\(result.stdout)\(result.stderr)"]
        case "script":
            let driver = root.appendingPathComponent("Tests/EndToEndTests/Fixtures/docs/run_example_spec.lua")
            let result = try cdscript(["test", driver.path], in: folder, environment: ["CDSCRIPT_DOC_EXAMPLE": path.path])
            return result.status == 0 ? [] : ["the script fails on the virtual clock (exit \(result.status)):\n\(result.stdout)\(result.stderr)"]
        default:
            return []
        }
    }

    private static func runConsole(_ block: Block, in folder: URL) throws -> [String] {
        var problems: [String] = []
        var commands: [(command: String, expected: [String])] = []
        for line in block.text.components(separatedBy: "\n").dropLast() {
            if line.hasPrefix("$ ") { commands.append((String(line.dropFirst(2)), [])) }
            else if !commands.isEmpty { commands[commands.count - 1].expected.append(line) }
            else { problems.append("output before any `$ ` command: \(line)") }
        }
        for (command, expected) in commands {
            let result = try cdscript([], in: folder, shell: command)
            let actual = result.stdout.components(separatedBy: "\n").map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            var wanted = expected.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            while wanted.last == "" { wanted.removeLast() }
            var got = actual
            while got.last == "" { got.removeLast() }
            if result.status != 0 { problems.append("`\(command)` exits \(result.status):\n\(result.stdout)\(result.stderr)") }
            else if got != wanted {
                problems.append("`\(command)` prints\n\(got.joined(separator: "\n"))\nwhere the page shows\n\(wanted.joined(separator: "\n"))\n\(result.stderr)")
            }
        }
        return problems
    }

    /// The binary under test in the page's folder, or `shell` run by bash with it first on PATH.
    private static func cdscript(_ arguments: [String], in folder: URL, environment: [String: String] = [:],
                                 shell: String? = nil) throws -> BinaryRunner.Result {
        var environment = environment
        environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
        environment["CDSCRIPT_STATE_DIR"] = folder.appendingPathComponent("state/cdscript").path
        environment["CDSCRIPT_STORE"] = ""
        environment["CDSCRIPT_PLUGIN_PATH"] = ""
        environment["NO_COLOR"] = "1"
        environment["PATH"] = folder.appendingPathComponent("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        if let shell {
            return try BinaryRunner.run(["-c", shell], timeout: 120, in: folder, environment: environment,
                                        executable: URL(fileURLWithPath: "/bin/bash"))
        }
        return try BinaryRunner.run(arguments, timeout: 120, in: folder, environment: environment)
    }
}
