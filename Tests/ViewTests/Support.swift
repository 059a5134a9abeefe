import CountdownCore
import Foundation
import LuaHost
import TerminalView

/// A host on a virtual clock whose `view` draws on a `VirtualTerminal`, as
/// `cdscript test` will use it.
final class ViewHarness {
    let clock = VirtualClock()
    let scheduler: Scheduler
    let host: LuaHost
    let terminal: VirtualTerminal
    let view: ViewController
    var errors: [String] = []

    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples")

    init(columns: Int = 40, rows: Int = 7, plain: ((String) -> Void)? = nil) {
        scheduler = Scheduler(clock: clock)
        host = LuaHost(scheduler: scheduler)
        terminal = VirtualTerminal(columns: columns, rows: rows)
        view = ViewController(output: plain.map { .plain($0) } ?? .screen(terminal, colours: true))
        host.installView(view)
        host.reportError = { [unowned self] in self.errors.append($0) }
    }

    /// Runs source text; returns the error message, if any.
    @discardableResult
    func run(_ source: String) -> String? {
        host.runScript(source: Data(source.utf8), chunkName: "=test", arguments: ["test"])?.message
    }

    /// Runs an example script with arguments.
    func runExample(_ name: String, _ arguments: String...) -> String? {
        host.runScript(atPath: Self.examples.appendingPathComponent(name).path, arguments: arguments)?.message
    }

    /// Lets `seconds` pass on the virtual clock, then draws, as the run loop does.
    func advance(_ seconds: Double) {
        scheduler.advance(clock, to: clock.boot + Nanoseconds(seconds * 1e9))
        view.render()
    }

    /// The terminal's screen after drawing what is pending.
    var screen: String {
        view.render()
        return terminal.screenText()
    }

    func press(_ key: String) -> ViewController.PressOutcome {
        let outcome = host.view?.press(key) ?? .unbound
        view.render()
        return outcome
    }
}

func rows(_ lines: String...) -> String { lines.joined(separator: "\n") }
