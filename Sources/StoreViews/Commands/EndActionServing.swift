import CommandEnding
import CountdownCore
import RedisStore
import StoredEndActions
import TerminalView

/// `cdscript serve`'s end actions, once its words are read: the runner
/// (StoredEndActions) on the store the command opened, its log on standard
/// output and its problems on standard error, until a signal stops it.
public enum EndActionServing {
    /// What the runner follows: a Redis store as it is, else the SQLite store of
    /// the state folder (a handle of the runner's own).
    public static func served(_ store: SharedStore, location: StoreLocation) -> ServedStore {
        if let redis = store.persistence as? RedisCountdownStore { return .redis(redis) }
        return .sqlite(location.sqliteStore())
    }

    /// Runs the actions of `catalog` (`reloadCatalog` on SIGHUP) at the ends of
    /// the countdowns `served` holds; a store that fails: said, exit 6.
    public static func run(_ served: ServedStore, configuration: EndActionRunner.Configuration, catalog: ActionCatalog,
                           reloadCatalog: @escaping () throws -> ActionCatalog) throws(CommandExit) {
        let runner = EndActionRunner(store: served, configuration: configuration, catalog: catalog, loadCatalog: reloadCatalog,
                                     log: { StandardOutput.write($0 + "\n", what: "the log") },
                                     report: { StandardError.line($0) })
        switch runner.run() {
        case .stopped, .stoppedAtOnce:
            return
        case .failed(let message):
            StandardError.line("cdscript serve: \(message)")
            throw CommandExit(.storeError)
        }
    }
}
