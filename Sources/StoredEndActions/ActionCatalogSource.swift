#if canImport(Glibc)
import Glibc
#endif
import CountdownCore
import FoundationEssentials

/// Where `cdscript serve`'s actions come from: the built-ins, then the lines of
/// its configuration file (`--actions-file`, else
/// `$XDG_CONFIG_HOME/cdscript/actions.conf`, else `~/.config/cdscript/actions.conf`;
/// a missing default file defines nothing), then each `--action NAME=COMMAND`.
/// Read at start and again on SIGHUP.
public struct ActionCatalogSource: Sendable {
    /// `--actions-file`, which must exist when given.
    public var file: String?
    /// `--action`'s definitions, in order.
    public var definitions: [String]

    public init(file: String? = nil, definitions: [String] = []) {
        self.file = file
        self.definitions = definitions
    }

    /// The configuration file in use.
    public var path: String {
        if let file { return file }
        let base = ProcessEnvironment.value("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 }
            ?? (ProcessEnvironment.value("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config"
        return base + "/cdscript/actions.conf"
    }

    /// The built-ins, the file's lines, then the definitions'; why not, as one line.
    public func load() throws(ActionCatalogUnreadable) -> ActionCatalog {
        let path = self.path
        var text: String?
        if FileManager.default.fileExists(atPath: path) {
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ActionCatalogUnreadable(description: "cannot read the actions: \(ErrorText.line(error))")
            }
        } else if file != nil {
            throw ActionCatalogUnreadable(description: "--actions-file: \(path) does not exist")
        }
        do {
            var catalog = ActionCatalog()
            if let text { try catalog.read(file: text, origin: path) }
            for definition in definitions { try catalog.define(definition, origin: "--action") }
            return catalog
        } catch {
            throw ActionCatalogUnreadable(description: "\(error)")
        }
    }

    /// A name for this serve, unique per process: a claim names its holder.
    public static func owner() -> String {
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count) == 0 ? String(cString: name) : "host"
        return "serve:\(host):\(getpid()):\(UInt32.random(in: 0...UInt32.max))"
    }
}

/// Why the actions could not be read: a file that cannot be read or is missing,
/// or a line or definition that does not read.
public struct ActionCatalogUnreadable: Error, CustomStringConvertible, Sendable {
    public let description: String
}
