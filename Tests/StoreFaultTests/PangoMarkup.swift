import Foundation

/// Pango's own markup parser (`pango_parse_markup`, Debian's libpango1.0-dev,
/// installed by scripts/setup), through Tests/Support/pango-parse.c, which the
/// first use compiles with gcc: what waybar makes of a custom module's text.
enum PangoMarkup {
    enum Parsed: Equatable {
        /// Markup that shows this text, unstyled.
        case text(String)
        /// Markup that styles what it shows (`<span foreground="red">`).
        case styled(String)
        /// Not markup at all: waybar shows nothing of the module.
        case invalid(String)
    }

    /// True when gcc and Pango's headers are there (scripts/setup installs both):
    /// without them the test is skipped; with them, a helper that does not build fails it.
    static var installed: Bool {
        (try? run(["/bin/sh", "-c", "command -v gcc && pkg-config --exists pango"], input: ""))?.status == 0
    }

    /// The helper, compiled; nil and the compiler's messages when it does not compile.
    static let helper: (path: String?, why: String) = build()

    private static func build() -> (String?, String) {
        let source = LiveProcess.packageRoot.appendingPathComponent("Tests/Support/pango-parse.c").path
        let binary = Scratch.directory("pango") + "/pango-parse"
        let command = "gcc -O0 -o '\(binary)' '\(source)' $(pkg-config --cflags --libs pango)"
        guard let result = try? run(["/bin/sh", "-c", command], input: "") else { return (nil, "cannot run /bin/sh") }
        return result.status == 0 ? (binary, "") : (nil, "Tests/Support/pango-parse.c does not compile: \(result.stderr)")
    }

    /// What Pango makes of `markup`.
    static func parse(_ markup: String) throws -> Parsed {
        guard let path = helper.path else { throw CocoaError(.featureUnsupported) }
        let result = try run([path], input: markup)
        switch result.status {
        case 0: return .text(result.stdout)
        case 2: return .styled(result.stdout)
        default: return .invalid(result.stderr)
        }
    }

    private static func run(_ command: [String], input: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Written from a thread of its own: 10,000 characters fill no pipe, but the
        // helper's output must be read while it is written.
        let writer = Thread { stdin.fileHandleForWriting.write(Data(input.utf8)); try? stdin.fileHandleForWriting.close() }
        writer.start()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
