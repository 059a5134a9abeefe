import FoundationEssentials

/// What comes before the script on the command line, for the negative indices
/// of `arg` (as `lua5.4` sets them), and the path a spec can run cdscript by.
public enum InterpreterArguments {
    /// The words of the command line before the script: the program and its
    /// options. The script's arguments are the tail of the command line (they
    /// are captured as they are), so the script is the word just before them.
    public static func beforeScript(scriptArguments: [String], commandLine: [String] = CommandLine.arguments) -> [String] {
        let scriptIndex = commandLine.count - scriptArguments.count - 1
        guard scriptIndex >= 1 else { return Array(commandLine.prefix(1)) }
        return Array(commandLine[..<scriptIndex])
    }

    /// This program's path, whole: a spec that changes folder before it runs
    /// `arg[-1]` must still find it.
    public static var executablePath: String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        let first = CommandLine.arguments.first ?? "cdscript"
        guard first.contains("/") else { return first }
        return URL(fileURLWithPath: first).standardizedFileURL.path
    }
}
