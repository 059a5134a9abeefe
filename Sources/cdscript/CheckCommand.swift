import ArgumentParser
import CountdownCore
import StoreViews
import CommandLineWords

/// `cdscript check`: reads the whole store, changes nothing, and says whether it
/// is whole: one line per problem, then a summary; exit 0 when whole, 9 when
/// damaged, 6 when it cannot be checked.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the countdown store for damage, without changing it.",
        discussion: """
            SQLite: every page (PRAGMA quick_check; --full: integrity_check, which also \
            compares every index with its table), the schema (the change log's triggers \
            included), every countdown and the end claims. Redis: every countdown record and end claim key, read \
            in pieces. Exit 0 when nothing is wrong, 9 when something is (each problem on \
            a line of its own), 6 when the store cannot be checked.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "SQLite: PRAGMA integrity_check instead of quick_check (slower; also compares every index with its table).")
    var full = false

    @Flag(help: "Print the report as JSON: {store, countdowns, ok, problems: [{subject, id, problem}], notes}.")
    var json = false

    func run() throws {
        // Not the --redis-wait settings: a check waits for no replica.
        let location = StoreLocation(stateDir: storeOptions.stateDir, store: storeOptions.store, tls: storeOptions.tlsSettings)
        try exitingAsCommand { try StoreCheck.run(location, full: full, json: json) }
    }
}
