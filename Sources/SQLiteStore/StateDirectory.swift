import CountdownCore
import FoundationEssentials

/// Where the countdown store lives.
public enum StateDirectory {
    /// The store's file name inside its directory.
    public static let fileName = "state.sqlite"

    /// The directory, in order of precedence: `--state-dir`, `CDSCRIPT_STATE_DIR`,
    /// `$XDG_STATE_HOME/cdscript`, `~/.local/state/cdscript`.
    public static func resolve(option: String?, environment: (String) -> String? = ProcessEnvironment.value) -> String {
        if let option, !option.isEmpty { return option }
        if let dir = environment("CDSCRIPT_STATE_DIR"), !dir.isEmpty { return dir }
        // The XDG spec says a relative XDG_STATE_HOME is invalid and must be ignored.
        if let xdg = environment("XDG_STATE_HOME"), xdg.hasPrefix("/") { return xdg + "/cdscript" }
        let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/state/cdscript"
    }

    /// The store file inside `directory`.
    public static func storePath(in directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + fileName
    }
}
