import ArgumentParser

extension TimerCommand {
    /// termdown's short options (termdown 2.0), each with what `cdscript timer`
    /// calls it: a termdown user's habit gets a pointer, not "Unknown option".
    static let termdownOptions: [String: String] = [
        "-T": "--title TEXT",
        "-c": "--critical DURATION",
        "-t": "--text TEXT",
        "-b": "--blink",
        "-B": "--no-bell",
        "-o": "--outfile PATH",
        "-q": "--quit-after DURATION",
        "-W": "--no-window-title",
        "-e": "--exec PROGRAM ARGS... (run once, at the end; termdown's -e runs a command every second)",
    ]

    /// Throws a usage error for the first of termdown's short options among
    /// `words` (the arguments no option took), naming the option to use.
    static func checkTermdownHabits(_ words: [String]) throws {
        let options = words.firstIndex(of: "--").map { Array(words[..<$0]) } ?? words
        for word in options {
            let name = word.count > 2 && !word.hasPrefix("--") ? String(word.prefix(2)) : word
            if let ours = termdownOptions[name] {
                throw ValidationError("\(name) is termdown's option; cdscript timer's is \(ours)")
            }
        }
    }
}
