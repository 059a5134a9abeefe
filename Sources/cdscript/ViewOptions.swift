import ArgumentParser
import ScriptRunning
import TerminalView

/// How a command that shows a view draws it: `run`, `timer` and `watch`.
struct ViewOptions: ParsableArguments {
    @Flag(help: "Print one line per change of the view instead of drawing it (the default when stdout is not a terminal).")
    var plain = false

    @Flag(name: .customLong("no-color"), help: "Draw the view without colours (also when NO_COLOR is set).")
    var noColor = false

    var settings: ViewSettings { ViewSettings(plain: plain, noColor: noColor) }

    /// The controller the view draws through, and the terminal it takes over
    /// (nil when it prints lines to stdout).
    func makeView() -> (controller: ViewController, session: TerminalSession?) { settings.makeView() }

    /// What a full-screen view does on the run loop's observed signals (ViewSettings).
    static func follow(_ signal: Int32, session: TerminalSession?, controller: ViewController) {
        ViewSettings.follow(signal, session: session, controller: controller)
    }
}
