#if canImport(Glibc)
import Glibc
#endif
import CountdownCore
import EventLoop
import FoundationEssentials
import LuaHost
import TerminalView

/// Decides where the script's view goes and wires it into the run loop.
///
/// - stdout is a terminal and no `--plain`: full screen. The view opens (raw
///   keys, alternate screen, hidden cursor) when the script creates its first
///   element; from then on the run ends when the view closes (`q`, Ctrl-C,
///   `view.close()`), and the screen is redrawn once per pass of the loop.
/// - otherwise plain lines: one `id: text` line per change, keys from stdin one
///   per line; with a view open the run ends when it closes, or when no
///   countdown is active and stdin has ended.
///
/// A script that never creates an element runs exactly as without a view: until
/// no countdown is active, with `print` going to stdout.
///
/// With `run --serve` (`browserOnly` when stdout is no terminal) the page is
/// the view: no lines are printed, and an open view runs until it is closed
/// (`view.close()`, a `q` line on stdin, a signal), as a full-screen one does,
/// not until stdin ends.
final class ViewRuntime {
    private(set) var controller: ViewController
    private var session: TerminalSession?
    /// --plain and --no-color as the run has them now (see `view.configure`).
    private var options: ViewSettings
    /// The host whose script draws the view; another one after a reload (`run --watch`).
    private(set) var host: LuaHost
    private let loop: MainLoop
    private var stdinOpen = true
    private var lines = LineSplitter()
    /// The browser is the only view (`run --serve` without a terminal).
    private let browserOnly: Bool

    init(options: ViewSettings, host: LuaHost, loop: MainLoop, browserOnly: Bool = false) {
        self.host = host
        self.loop = loop
        self.options = options
        self.browserOnly = browserOnly
        (controller, session) = Self.makeView(options, browserOnly: browserOnly)
        controller.onOpen = { [unowned self] in self.startReadingKeys() }
        attach(host)
        loop.isDone = { [unowned self] in
            let scheduler = self.loop.scheduler
            guard self.controller.isOpen else { return scheduler.activeCount == 0 }
            if self.controller.isClosed { return true }
            return self.controller.isPlain && !self.browserOnly && !self.stdinOpen && scheduler.activeCount == 0
        }
        loop.afterPass = { [unowned self] in
            // Stopped by Ctrl-Z, the terminal is the shell's: after `fg`, a pass may run
            // (the catch-up tick) before SIGCONT is handled, which redraws all of it.
            if self.session?.isGivenBack == true { return }
            self.controller.render()
        }
        loop.onSignal = { [unowned self] signal in ViewSettings.follow(signal, session: self.session, controller: self.controller) }
    }

    /// Lets `host`'s script draw on the view and take its keys: the run's first
    /// host, and each version of a script reloaded on save.
    func attach(_ host: LuaHost) {
        self.host = host
        host.installView(controller)
        // A script that reads --plain and --no-color itself (the timer's ejected
        // copy) switches the view before it opens.
        host.view?.modeChanger = { [unowned self] mode in
            var changed = self.options
            if let plain = mode.plain { changed.plain = plain }
            if let colours = mode.colours { changed.noColor = !colours }
            let same = changed.printsLines == self.options.printsLines && (changed.printsLines || changed.noColor == self.options.noColor)
            guard !same else { return nil }
            self.options = changed
            (self.controller, self.session) = Self.makeView(changed, browserOnly: self.browserOnly)
            self.controller.onOpen = { [unowned self] in self.startReadingKeys() }
            return self.controller
        }
    }

    /// The view as `options` make it; lines nobody reads are not printed when the browser is the only view.
    private static func makeView(_ options: ViewSettings, browserOnly: Bool) -> (controller: ViewController, session: TerminalSession?) {
        browserOnly ? (ViewController(output: .plain { _ in }), nil) : options.makeView()
    }

    /// Gives the view back to a host that had it before (a reloaded version that
    /// failed), with its buttons and key handlers as they were.
    func giveBack(to host: LuaHost) {
        self.host = host
    }

    /// Gives the terminal back (and writes out what the script printed meanwhile).
    /// Safe on every path, more than once.
    func finish() {
        session?.end()
    }

    private func startReadingKeys() {
        if let session {
            guard session.inputFD >= 0 else { return }
            let fd = session.inputFD
            loop.watch(fd) { [unowned self] in
                guard let keys = session.readKeys() else {
                    self.loop.unwatch(fd)
                    return
                }
                for key in keys { self.host.view?.press(key) }
            }
        } else {
            loop.watch(STDIN_FILENO) { [unowned self] in self.readPlainInput() }
        }
    }

    private func readPlainInput() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(STDIN_FILENO, &buffer, buffer.count)
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return }
        var received: [String]
        if n > 0 {
            received = lines.feed(Array(buffer[..<n]))
        } else {
            stdinOpen = false
            loop.unwatch(STDIN_FILENO)
            received = lines.finish().map { [$0] } ?? []
        }
        for line in received {
            if let key = KeyDecoder.key(line: line) { host.view?.press(key) }
        }
    }
}
