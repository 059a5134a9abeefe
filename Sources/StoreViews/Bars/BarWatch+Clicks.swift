#if canImport(Glibc)
import Glibc
#endif
import CountdownCore
import EventLoop
import TerminalView

/// i3bar's clicks: a left click on a countdown's block pauses it when it runs
/// and resumes it when it is paused, in the store, as `cdscript pause` and
/// `resume` do; every other process that follows the store sees the change
/// through its change feed, and this bar reads the store again at once.
extension BarWatch {
    /// Reads clicks from standard input on the loop's own thread: the loop wakes
    /// when input is there, and one `read` takes what is there without waiting.
    /// At the end of the input the bar keeps running, without clicks.
    public func readClicks(on loop: MainLoop) {
        var stream = BarClickStream()
        loop.watch(STDIN_FILENO) { [unowned self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
            let events: [BarClickStream.Event]
            if count > 0 {
                events = stream.feed(buffer[..<count])
            } else {
                // The end (or an input that cannot be read): nothing more will come.
                loop.unwatch(STDIN_FILENO)
                events = stream.finish()
            }
            for event in events {
                switch event {
                case .click(let click): self.clicked(click)
                case .malformed(let text): StandardError.line("cdscript: ignored a click event that is not one: \(text)")
                }
            }
        }
    }

    /// A left click on one of this bar's blocks toggles that countdown; other
    /// buttons, and blocks that are not this bar's, are left to the bar.
    func clicked(_ click: BarClick) {
        guard click.button == 1, click.name == BarProtocol.blockName, let instance = click.instance else { return }
        // The id as stored: the block's instance names it exactly.
        guard let shownID = shownCountdown(CountdownID(instance))?.id else {
            StandardError.line("cdscript: a click on '\(VisibleText.escaped(instance))', which this bar does not show; nothing changed")
            return
        }
        do {
            let now = try store.now()
            let refusal = try store.modify(id: shownID) { record -> String? in
                guard var changed = record else { return "it is no longer stored" }
                switch changed.effectiveState(at: now) {
                case .running: guard changed.pause(at: now) else { return "it has ended" }
                case .paused: guard changed.resume(at: now) else { return "it has ended" }
                case .finished: return "it has finished"
                }
                record = changed
                return nil
            }
            let why: String?
            switch refusal {
            case .none: why = "the store is gone"
            case .some(let reason): why = reason
            }
            if let why {
                StandardError.line("cdscript: a click on '\(VisibleText.escaped(shownID))': \(why); nothing changed")
                return
            }
            // The store's change feed tells other processes; this one may not hear
            // its own write (SQLite's data_version counts other connections' only).
            try refresh(.unknown)
        } catch {
            showError("\(error)")
        }
    }
}
