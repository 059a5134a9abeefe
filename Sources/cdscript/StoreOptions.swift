import ArgumentParser
import CountdownCore
import CountdownStore
import Foundation

/// `--state-dir`, shared by run, list, cancel and clear.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: ArgumentHelp(
        "Where persistent countdowns are kept (default: $CDSCRIPT_STATE_DIR, else $XDG_STATE_HOME/cdscript, else ~/.local/state/cdscript).",
        valueName: "DIR"))
    var stateDir: String?

    /// The store; nothing is opened or created until it is used.
    func makeStore() -> CountdownStore {
        CountdownStore(directory: StateDirectory.resolve(option: stateDir))
    }
}

/// The instant every stored countdown is read at.
func storeNow() -> StoreInstant {
    let clock = BootClock()
    return StoreInstant(boot: clock.bootNow(), wall: clock.wallNow(), bootID: BootID.current())
}

/// Reports a store error and exits with its code.
func failOnStore(_ error: any Error) -> ExitCode {
    printError("cdscript: \(error)")
    return ExitCode(ExitStatus.storeError.rawValue)
}
