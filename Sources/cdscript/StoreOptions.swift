import ArgumentParser
import CountdownCore
import SystemIdentity
import SQLiteStore
import Foundation
import RedisStore

/// `--state-dir`, shared by run, list, cancel and clear.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: ArgumentHelp(
        "Where persistent countdowns are kept (default: $CDSCRIPT_STATE_DIR, else $XDG_STATE_HOME/cdscript, else ~/.local/state/cdscript).",
        valueName: "DIR"), completion: .directory)
    var stateDir: String?

    @Option(name: .customLong("store"), help: ArgumentHelp(
        "Keep persistent countdowns in Redis, shared across machines: redis://[:PASSWORD@]HOST[:PORT][/DB] (default: $CDSCRIPT_STORE, else the SQLite store of --state-dir). rediss:// is not supported.",
        valueName: "URL"))
    var store: String?

    /// The store; nothing is opened or created until it is used.
    func makeStore() -> SQLiteCountdownStore { Self.makeStore(stateDir: stateDir) }

    static func makeStore(stateDir: String?) -> SQLiteCountdownStore {
        SQLiteCountdownStore(directory: StateDirectory.resolve(option: stateDir))
    }

    /// The Redis URL chosen by `--store`, else `CDSCRIPT_STORE`; nil for the SQLite store.
    var chosenRedisURL: String? { Self.chosenRedisURL(stateDir: stateDir, store: store) }

    static func chosenRedisURL(stateDir: String?, store: String?) -> String? {
        let environment = ProcessEnvironment.value("CDSCRIPT_STORE").flatMap { $0.isEmpty ? nil : $0 }
        // --state-dir given explicitly wins over the environment's Redis URL.
        return store ?? (stateDir == nil ? environment : nil)
    }

    /// The store chosen by `--store` / `CDSCRIPT_STORE`, else the SQLite one.
    func openShared() throws -> SharedStore { try Self.openShared(stateDir: stateDir, store: store) }

    /// The same from plain values, for a command read without ArgumentParser
    /// (StatusRequest+PlainWords.swift), which must not touch this type's wrappers.
    static func openShared(stateDir: String?, store: String?) throws -> SharedStore {
        guard let text = chosenRedisURL(stateDir: stateDir, store: store) else {
            return SQLiteSharedStore(makeStore(stateDir: stateDir))
        }
        do {
            // Changes queued while the server is out of reach are kept in the state
            // folder until it has them (issue 37): a run that ends first loses none.
            let journal = PendingJournal(directory: StateDirectory.resolve(option: stateDir))
            return RedisSharedStore(RedisCountdownStore(url: try RedisURL(text), journal: journal))
        } catch {
            printError("cdscript: --store: \(error)")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}

/// The instant every stored countdown is read at.
func storeNow() -> StoreInstant {
    let clock = BootClock()
    return StoreInstant(boot: clock.bootNow(), wall: clock.wallNow(), bootID: BootID.current)
}

/// Reports a store error and exits with its code.
func failOnStore(_ error: any Error) -> ExitCode {
    printError("cdscript: \(error)")
    return ExitCode(ExitStatus.storeError.rawValue)
}
