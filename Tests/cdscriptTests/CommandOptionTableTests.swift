import ArgumentParser
import Foundation
import Testing
@testable import cdscript
@testable import CommandLineWords

/// The options of one command as ArgumentParser itself describes them (the JSON of
/// `--experimental-dump-help`). Read only here: `_dumpHelp()` is outside
/// ArgumentParser's stability promise, so the product reads `CommandOptionTable`,
/// and this is what holds the table to the commands.
private struct Described: Decodable {
    struct Name: Decodable { var kind: String; var name: String }
    struct Argument: Decodable {
        var kind: String
        var parsingStrategy: String?
        var names: [Name]?
    }
    struct Command: Decodable { var arguments: [Argument]? }
    var command: Command

    /// The command's options in the table's terms.
    static func options(of type: ParsableCommand.Type) throws -> CommandOptions {
        let described = try JSONDecoder().decode(Described.self, from: Data(type._dumpHelp().utf8))
        var options = CommandOptions()
        for argument in described.command.arguments ?? [] {
            let takesRest = argument.parsingStrategy == "allRemainingInput" || argument.parsingStrategy == "postTerminator"
            for name in argument.names ?? [] {
                let spelt = (name.kind == "long" ? "--" : "-") + name.name
                switch argument.kind {
                case "option":
                    options.takesValue[spelt] = true
                    if takesRest { options.takesRest.insert(spelt) }
                case "flag":
                    options.takesValue[spelt] = false
                default:
                    break
                }
            }
            if argument.kind == "positional", argument.parsingStrategy == "allRemainingInput" { options.positionalEndsOptions = true }
        }
        // The root's --version, which ArgumentParser accepts after any command's name too.
        options.takesValue["--version"] = false
        return options
    }
}

/// What differs between the table's row and the declared options, one line each.
private func differences(row: CommandOptions, declared: CommandOptions) -> [String] {
    var lines: [String] = []
    for (name, value) in declared.takesValue.sorted(by: { $0.key < $1.key }) {
        switch row.takesValue[name] {
        case nil: lines.append("\(name) is declared but not in the table")
        case let tabled? where tabled != value: lines.append("\(name) \(value ? "takes" : "takes no") value, the table says otherwise")
        default: break
        }
    }
    for name in row.takesValue.keys.sorted() where declared.takesValue[name] == nil {
        lines.append("\(name) is in the table but not declared")
    }
    if row.takesRest != declared.takesRest { lines.append("rest-taking options: table \(row.takesRest.sorted()), declared \(declared.takesRest.sorted())") }
    if row.positionalEndsOptions != declared.positionalEndsOptions {
        lines.append("a positional ending the options: table \(row.positionalEndsOptions), declared \(declared.positionalEndsOptions)")
    }
    return lines
}

private let commandTypes = CDScript.configuration.subcommands.filter { !$0._commandName.hasPrefix("_") }

@Suite("The table of every command's options against what ArgumentParser declares")
struct CommandOptionTableTests {
    @Test("every subcommand names itself in its configuration, as ArgumentParser names it")
    func subcommandsNameThemselves() {
        for type in CDScript.configuration.subcommands {
            #expect(type.configuration.commandName == type._commandName, "\(type)")
        }
    }

    @Test("the table has a row for every command and for nothing else")
    func oneRowPerCommand() {
        #expect(Set(CommandOptionTable.commands.keys) == Set(commandTypes.map { $0._commandName }))
        #expect(CommandOptionTable.commandNames == commandTypes.map { $0._commandName })
        #expect(CommandHints.commandNames == commandTypes.map { $0._commandName } + ["help"])
    }

    @Test("each command's row names exactly its declared options, which take a value and which take the rest",
          arguments: commandTypes.map { $0._commandName })
    func rowIsWhatIsDeclared(name: String) throws {
        let type = try #require(commandTypes.first { $0._commandName == name })
        let row = try #require(CommandOptionTable.options(of: name))
        let found = differences(row: row, declared: try Described.options(of: type))
        #expect(found.isEmpty, "\(name): \(found.joined(separator: "; "))")
    }

    @Test("a name that is no command's has no row, nor does help")
    func noRowForOtherNames() {
        #expect(CommandOptionTable.options(of: "lsit") == nil)
        #expect(CommandOptionTable.options(of: "help") == nil)
    }
}
