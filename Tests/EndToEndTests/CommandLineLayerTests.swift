import Foundation
import Testing

/// Issue 47: the executable's library, `Sources/cdscript`, holds command types
/// only (what a command's words are, their help and checks, and a `run()` that
/// calls the library doing the work and exits); the work itself lives in the
/// modules below it (StoreViews for the store-facing commands, ScriptRunning for a
/// script's run, CommandLineWords for the option groups and the word readers),
/// tested in process.
@Suite("Sources/cdscript holds command types only")
struct CommandLineLayerTests {
    static let folder = BinaryRunner.packageRoot.appendingPathComponent("Sources/cdscript")

    /// The most lines Sources/cdscript may hold: issue 47's 1,500. (It held 6,703
    /// before the store-facing and run logic moved out, 2,355 before the option
    /// groups and word readers moved to CommandLineWords, 1,256 after.)
    static let lineBudget = 1_500

    /// ArgumentParser's protocols a command file's types conform to.
    static let commandProtocols = ["ParsableCommand", "AsyncParsableCommand", "ParsableArguments", "ExpressibleByArgument", "EnumerableFlag"]
    /// ArgumentParser's own types a command file may extend (completions, exits).
    static let argumentParserTypes: Set<String> = ["CompletionKind", "ExitCode", "ArgumentHelp", "CommandConfiguration"]

    /// Each Swift file of Sources/cdscript (its path under it) and its text.
    static func files() throws -> [(name: String, text: String)] {
        let names = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return try names.filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// The names of the types `text` declares conforming to one of ArgumentParser's protocols.
    static func commandTypes(in text: String) -> [String] {
        let protocols = commandProtocols.joined(separator: "|")
        let declaration = try! NSRegularExpression(pattern: #"^(?:public |final |private |fileprivate )*(?:struct|enum|class) (\w+)[^{\n]*:[^{\n]*\b(?:"# + protocols + #")\b"#, options: .anchorsMatchLines)
        let range = NSRange(text.startIndex..., in: text)
        return declaration.matches(in: text, range: range).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
    }

    /// True when `text` declares a command type, or extends one (of this folder or ArgumentParser's).
    static func isCommandFile(_ text: String, commandTypes: Set<String>) -> Bool {
        if !Self.commandTypes(in: text).isEmpty { return true }
        let extensionLine = try! NSRegularExpression(pattern: #"^(?:public |private |fileprivate )*extension (\w+)\b([^{\n]*)"#, options: .anchorsMatchLines)
        let range = NSRange(text.startIndex..., in: text)
        for match in extensionLine.matches(in: text, range: range) {
            guard let name = Range(match.range(at: 1), in: text).map({ String(text[$0]) }),
                  let rest = Range(match.range(at: 2), in: text).map({ String(text[$0]) }) else { continue }
            if commandTypes.contains(name) || argumentParserTypes.contains(name) { return true }
            if commandProtocols.contains(where: { rest.contains($0) }) { return true }
        }
        return false
    }

    @Test("every file of Sources/cdscript declares or extends a command type")
    func commandFilesOnly() throws {
        let files = try Self.files()
        #expect(files.count > 10, "the walk found the sources")
        let commandTypes = Set(files.flatMap { Self.commandTypes(in: $0.text) })
        #expect(commandTypes.isSuperset(of: ["CDScript", "RunCommand", "ListCommand", "StatusCommand", "WatchCommand"]))
        for file in files {
            #expect(Self.isCommandFile(file.text, commandTypes: commandTypes),
                    "Sources/cdscript/\(file.name) declares no command type and extends none: its code belongs in a library below the command line (CommandLineWords for words read beside ArgumentParser)")
        }
    }

    @Test("the check tells a command file from one that is not")
    func checkTellsFilesApart() {
        let command = "struct ListCommand: ParsableCommand {\n}\n"
        #expect(Self.isCommandFile(command, commandTypes: []))
        #expect(Self.isCommandFile("extension ListCommand {\n}\n", commandTypes: ["ListCommand"]))
        #expect(Self.isCommandFile("extension CompletionKind {\n}\n", commandTypes: []))
        #expect(!Self.isCommandFile("enum LeadingOptions {\n}\n", commandTypes: ["ListCommand"]))
        #expect(!Self.isCommandFile("extension MainLoop {\n}\n", commandTypes: ["ListCommand"]))
    }

    /// The lines of the files of Sources/cdscript that `include` admits.
    static func lines(_ include: (String) -> Bool) throws -> Int {
        try files().filter { include($0.name) }.map { $0.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }.reduce(0, +)
    }

    @Test("Sources/cdscript holds at most 1,500 lines")
    func withinTheBudget() throws {
        let lines = try Self.lines { _ in true }
        #expect(lines <= Self.lineBudget, "Sources/cdscript holds \(lines) lines; at most \(Self.lineBudget)")
    }

    /// The command files of the store-facing commands (their work is StoreViews').
    static let storeCommandFiles: Set<String> = [
        "CancelCommand.swift", "ChangeCommands.swift", "CheckCommand.swift", "ClearCommand.swift", "CompleteIDsCommand.swift",
        "ListCommand.swift", "ServeCommand.swift", "ServeCommand+Web.swift", "StartCommand.swift", "StatusCommand.swift",
        "WatchCommand.swift",
    ]

    @Test("the store-facing commands' files hold at most 700 lines")
    func storeCommandsWithinTheirShare() throws {
        let names = Set(try Self.files().map(\.name))
        #expect(Self.storeCommandFiles.isSubset(of: names), "gone: \(Self.storeCommandFiles.subtracting(names).sorted())")
        let lines = try Self.lines { Self.storeCommandFiles.contains($0) }
        #expect(lines <= 700, "the store-facing commands' files hold \(lines) lines; at most 700")
    }
}
