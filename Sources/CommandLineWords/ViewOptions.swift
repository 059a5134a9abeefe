import ArgumentParser
import ScriptRunning
import TerminalView

/// How a command that shows a view draws it: `run`, `timer` and `watch`.
public struct ViewOptions: ParsableArguments {
    public init() {}

    @Flag(help: "Print one line per change of the view instead of drawing it (the default when stdout is not a terminal).")
    public var plain = false

    @Flag(name: .customLong("no-color"), help: "Draw the view without colours (also when NO_COLOR is set).")
    public var noColor = false

    public var settings: ViewSettings { ViewSettings(plain: plain, noColor: noColor) }

    /// The controller the view draws through, and the terminal it takes over
    /// (nil when it prints lines to stdout).
    public func makeView() -> (controller: ViewController, session: TerminalSession?) { settings.makeView() }

    /// What a full-screen view does on the run loop's observed signals (ViewSettings).
    public static func follow(_ signal: Int32, session: TerminalSession?, controller: ViewController) {
        ViewSettings.follow(signal, session: session, controller: controller)
    }
}
