import CountdownCore
import FoundationEssentials

/// One folder searched for plugins, and why it is on the path.
public struct PluginDirectory: Sendable, Equatable {
    public var path: String
    /// "./plugins", "config", "--plugin-path" or "CDSCRIPT_PLUGIN_PATH".
    public var origin: String

    public init(path: String, origin: String) {
        self.path = path
        self.origin = origin
    }
}

/// The plugin path: `./plugins`, `$XDG_CONFIG_HOME/cdscript/plugins` (default
/// `~/.config/cdscript/plugins`), each `--plugin-path DIR`, then the folders of
/// `CDSCRIPT_PLUGIN_PATH` (separated by `:`). The first folder holding a plugin
/// wins; built-in plugins come after all of them, so a file can replace one.
public enum PluginPath {
    public static func standard(
        extra: [String] = [],
        environment: (String) -> String? = ProcessEnvironment.value,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> [PluginDirectory] {
        var dirs = [PluginDirectory(path: absolute("plugins", in: workingDirectory), origin: "./plugins")]
        let config: String
        if let xdg = environment("XDG_CONFIG_HOME"), !xdg.isEmpty {
            config = xdg
        } else {
            config = (environment("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config"
        }
        dirs.append(PluginDirectory(path: absolute(config + "/cdscript/plugins", in: workingDirectory), origin: "config"))
        for dir in extra where !dir.isEmpty {
            dirs.append(PluginDirectory(path: absolute(dir, in: workingDirectory), origin: "--plugin-path"))
        }
        for dir in (environment("CDSCRIPT_PLUGIN_PATH") ?? "").split(separator: ":") where !dir.isEmpty {
            dirs.append(PluginDirectory(path: absolute(String(dir), in: workingDirectory), origin: "CDSCRIPT_PLUGIN_PATH"))
        }
        return dirs
    }

    /// `path` made absolute against `directory`, with `.` and `..` resolved.
    public static func absolute(_ path: String, in directory: String) -> String {
        PathText.absolute(path, in: directory)
    }
}

/// A plugin found on the plugin path or built in.
public struct PluginListing: Sendable, Equatable {
    public var name: String
    /// The file, or "(built-in)".
    public var location: String
    public var origin: String
    /// An earlier folder (or file) holds a plugin of the same name.
    public var shadowed: Bool
}

extension PluginPath {
    /// Every plugin on `dirs` (`NAME.lua` and `NAME/init.lua`), then the built-in ones, in search order.
    public static func listing(_ dirs: [PluginDirectory]) -> [PluginListing] {
        var seen: Set<String> = []
        var found: [PluginListing] = []
        let fm = FileManager.default
        for dir in dirs {
            guard let entries = try? fm.contentsOfDirectory(atPath: dir.path) else { continue }
            var names: [(String, String)] = []
            for entry in entries.sorted() {
                let full = dir.path + "/" + entry
                guard fm.fileExists(atPath: full) else { continue }
                if FileKind.isDirectory(at: full) {
                    if fm.fileExists(atPath: full + "/init.lua") { names.append((entry, full + "/init.lua")) }
                } else if entry.hasSuffix(".lua") {
                    names.append((String(entry.dropLast(4)), full))
                }
            }
            for (name, file) in names {
                found.append(PluginListing(name: name, location: file, origin: dir.origin, shadowed: seen.contains(name)))
                seen.insert(name)
            }
        }
        for name in BuiltinPlugins.names {
            found.append(PluginListing(name: name, location: "(built-in)", origin: "built-in", shadowed: seen.contains(name)))
            seen.insert(name)
        }
        return found
    }
}
