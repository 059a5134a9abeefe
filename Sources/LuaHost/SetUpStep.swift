import CLuaShim
import Glibc

/// A step of the host's set-up (the libraries, the prelude, the plugin folders).
/// Set-up runs only the host's own code, so a step fails only when a signal
/// interrupted it (Ctrl-C or SIGTERM in the first milliseconds of a run: the
/// interrupt hook raises in whatever Lua call is under way) or when the binary
/// itself is broken. The first ends the run as that signal ends any run, 128 +
/// the signal, as shells report it (nothing is stored yet, and the terminal's
/// atexit handler restores it); the second is a trap with the message.
enum SetUpStep {
    static func check(_ succeeded: Bool, _ message: @autoclosure () -> String) {
        if !succeeded { failed(message()) }
    }

    /// A step that failed: see `SetUpStep`.
    static func failed(_ message: String) -> Never {
        let signal = cd_interrupt_signal()
        if signal != 0 { exit(128 + signal) }
        preconditionFailure(message)
    }
}
