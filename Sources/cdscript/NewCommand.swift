import ArgumentParser
import ScriptRunning
import CommandLineWords

/// `cdscript new NAME`: a script, its tests and an editor setup to start from.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create NAME.lua, tests/NAME_spec.lua and .luarc.json in the current folder.",
        discussion: """
            NAME.lua is a short commented script (a countdown with a view, a formatter and a \
            button); tests/NAME_spec.lua tests it on a virtual clock (`cdscript test`); .luarc.json \
            points lua-language-server at cdscript's annotation file. No file is ever overwritten: \
            an existing script or test is an error (exit 1), an existing .luarc.json is kept.
            """
    )

    @Argument(help: ArgumentHelp("The script's name: letters, digits, '-' and '_' (a trailing .lua is dropped).", valueName: "NAME"))
    var name: String

    var baseName: String { name.hasSuffix(".lua") ? String(name.dropLast(4)) : name }

    func validate() throws {
        guard !baseName.isEmpty, baseName.unicodeScalars.allSatisfy(Self.allowedInName), !baseName.hasPrefix("-") else {
            throw ValidationError("NAME must be letters, digits, '-' and '_', such as tea or sms-code; got '\(name)'")
        }
    }

    /// Letters, marks and digits of any script (CharacterSet's alphanumerics,
    /// which FoundationEssentials does not have), `-` and `_`.
    static func allowedInName(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return scalar == "-" || scalar == "_"
        }
    }

    func run() throws {
        try exitingAsCommand {
            try NewScript.create(baseName: baseName, script: PackageResources.new_script_lua, spec: PackageResources.new_spec_lua)
        }
    }
}
