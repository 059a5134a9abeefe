import CLua
import CLuaShim
import CountdownCore
import TerminalView

/// The host's part for the view: the view it draws on, the `on_press` callbacks
/// of its buttons and the `view.on_key` handlers, the text it holds against the
/// memory limit, and the countdowns Space paused. Made by `LuaHost.installView`,
/// and again by `replaceViewController` and `view.configure`. Owned by its
/// `LuaHost`, which it points back to without a strong reference, through a
/// checked `unowned` one (a use after the host is gone traps).
public final class ViewBinding {
    unowned let host: LuaHost
    let scheduler: Scheduler
    public let controller: ViewController
    /// Registry references to `on_press` callbacks, by button id.
    var pressRefs: [ElementKey: Int32] = [:]
    /// Bytes the view holds for the script (elements, their ids and text, the
    /// title), counted against the memory limit (`cd_limits_charge`).
    var heldTextBytes: [ElementKey: Int] = [:]
    /// The sum of `heldTextBytes`.
    var heldTotal = 0
    /// Countdowns paused by the Space key, resumed by the next Space.
    var pausedBySpace: [CountdownKey] = []
    /// Registry references to `view.on_key` handlers, by canonical key ("any": every key).
    var keyRefs: [String: Int32] = [:]
    /// Set by the executable: lets `view.configure` make the view again in another
    /// mode, before it opens. It returns the new controller (installed here), or
    /// nil when the host keeps its view as it is.
    public var modeChanger: ((ViewMode) -> ViewController?)?

    init(host: LuaHost, controller: ViewController) {
        self.host = host
        self.scheduler = host.scheduler
        self.controller = controller
    }


    /// Handles a key as if typed (the terminal's keys, plain-mode input lines,
    /// `view.press`): runs an enabled button's `on_press`, quits on `q`, and
    /// pauses or resumes all countdowns on Space unless a button binds it.
    @discardableResult
    public func press(_ key: String) -> ViewController.PressOutcome {
        // `q` quits unless the script binds it (a stopwatch ends with its laps).
        if key == Key.quit, let ref = keyRefs[key], controller.model.button(forKey: key) == nil {
            callKeyHandler(ref, key: key)
            return .handled
        }
        let outcome = controller.press(key)
        // A key no button took, and no quit key: the script's `view.on_key` handler
        // comes before Space's pause of all countdowns.
        if outcome == .togglePause || outcome == .unbound, let ref = keyRefs[key] ?? keyRefs["any"] {
            callKeyHandler(ref, key: key)
            return .handled
        }
        switch outcome {
        case .pressed(let id):
            if let ref = pressRefs[ElementKey(id)] { callPressHook(ref, id: id) }
        case .togglePause:
            // Nothing was running to pause, nor paused to resume: nothing happened.
            if !togglePauseAll() { return .unbound }
        case .disabled, .quit, .unbound, .handled:
            break
        }
        return outcome
    }

    private func callPressHook(_ ref: Int32, id: String) {
        callCallback(ref, with: id, named: "on_press of button \"\(VisibleText.escaped(id))\"")
    }

    /// Calls the script's view callback registry[ref] with one string; an error
    /// is reported as a hook's is: counted, on stderr escaped, and on the view's
    /// bottom row. `name` says which callback, already escaped.
    func callCallback(_ ref: Int32, with argument: String, named name: String) {
        let L = host.current
        let base = L.top
        defer { L.setTop(base) }
        L.pushRef(ref)
        L.push(argument)
        // After a terminating signal, "interrupted" is no error of the script.
        if cd_pcall_hook(L.raw, 1, 0) != LUA_OK, cd_interrupt_signal() == 0 {
            host.hookErrorCount += 1
            let message = L.string(at: -1) ?? "(error object is not a string)"
            host.reportError("cdscript: error in \(name): \(VisibleText.escapedKeepingLayout(message))")
            // The view's line escapes what it shows itself.
            showError("error in \(name)", message: message)
        }
    }

    /// Puts a hook's error on the open view's bottom row at once (issue 29): the
    /// message without its traceback, control characters escaped as on stderr;
    /// the whole report still goes to `reportError`.
    func showError(_ what: String, message: String) {
        let (text, _) = LuaHost.splitTraceback(message)
        controller.showError("\(what): \(VisibleText.escaped(text))")
    }

    /// Space: pause every running duration countdown; the next Space resumes the
    /// ones it paused. `at` countdowns keep running: their deadline is a fact
    /// about the world, which no key moves. Returns false when nothing changed.
    private func togglePauseAll() -> Bool {
        let paused = pausedBySpace.filter { scheduler.state($0) == .paused }
        pausedBySpace = []
        if controller.isPausedBySpace {
            controller.setPausedBySpace(false)
            for key in paused {
                host.store.willChange(key)
                guard scheduler.resume(key), host.store.persistentID(key) != nil else { continue }
                host.store.change(key) { record, now in record.resume(at: now) }
                scheduler.tickNow(key)
            }
            return true
        }
        let running = scheduler.activeKeys.filter { scheduler.state($0) == .running && scheduler.followsWallClock($0) == false }
        guard !running.isEmpty else { return false }
        controller.setPausedBySpace(true)
        // Each record as it was before its pause, for a store that keeps no copy of it (HeldRecords.swift).
        for key in running { host.store.willChange(key) }
        pausedBySpace = running.filter { scheduler.pause($0) }
        // A stored countdown is paused for everyone who follows it, as
        // `h:pause()` and `cdscript pause` pause it, and its view shows it at once.
        for key in pausedBySpace where host.store.persistentID(key) != nil {
            host.store.change(key) { record, now in record.pause(at: now) }
            scheduler.tickNow(key)
        }
        return true
    }
}
