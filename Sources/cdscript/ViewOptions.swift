#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CountdownCore
import EventLoop
import FoundationEssentials
import TerminalView

/// How a command that shows a view draws it: `run`, `timer` and `watch`.
struct ViewOptions: ParsableArguments {
    @Flag(help: "Print one line per change of the view instead of drawing it (the default when stdout is not a terminal).")
    var plain = false

    @Flag(name: .customLong("no-color"), help: "Draw the view without colours (also when NO_COLOR is set).")
    var noColor = false

    /// True when the view is printed as lines: asked for, or stdout is no terminal.
    var printsLines: Bool { plain || !TerminalSession.isTerminal(STDOUT_FILENO) }

    /// The controller the view draws through, and the terminal it takes over
    /// (nil when it prints lines to stdout).
    func makeView() -> (controller: ViewController, session: TerminalSession?) {
        guard !printsLines else {
            return (ViewController(output: .plain { line in
                StandardOutput.write(line + "\n", what: "the view's lines")
            }), nil)
        }
        let session = TerminalSession()
        let noColorVariable = ProcessEnvironment.value("NO_COLOR").map { !$0.isEmpty } ?? false
        return (ViewController(output: .screen(session, colours: !noColor && !noColorVariable)), session)
    }

    /// What a full-screen view does on the run loop's observed signals: redraw on
    /// a resize, give the terminal back before Ctrl-Z stops the process, and take
    /// it again (redrawing all of it) when the process continues.
    static func follow(_ signal: Int32, session: TerminalSession?, controller: ViewController) {
        switch signal {
        case SIGWINCH:
            controller.redrawAll()
        case SIGTSTP:
            // Running Lua code, or the watchdog, may have carried it out already.
            guard MainLoop.takeStopRequest() else { return }
            session?.suspend()
            raise(SIGSTOP)
        case SIGCONT:
            // The scheduler's catch-up pass has put the true remaining time in place.
            if let session, session.isActive {
                session.resume()
                controller.redrawAll()
            }
        default:
            break
        }
    }
}
