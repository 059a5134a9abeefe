import ArgumentParser
import CountdownCore
import RedisStore
import StoredEndActions
import TerminalView
import StoreViews
import CommandLineWords

/// `cdscript serve`: the long-running process that gives stored countdowns a
/// home: it runs their end actions (StoredEndActions) and serves them on web
/// pages and an HTTP API (CountdownWeb, in cdscript-serve); here the options
/// are parsed and both started, nothing more. In `cdscript`, which links no web
/// server, the options are parsed (for --help, completions and usage errors) and
/// the process is handed over to cdscript-serve with the same arguments (exec:
/// the pid, signals, output and exit status are serve's own).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Give stored countdowns a home: run the end actions they name (once per end across every serve and script) and serve them on web pages, an OBS overlay and an HTTP API, until stopped.",
        discussion: """
            Follows the store (--state-dir or --store redis://) and, at the end of every stored countdown that names \
            actions (cdscript start --action NAME, actions = {...}), claims the end and runs them: what a name runs is \
            configured here, never read from the store. Built-in: notify (notify-send), bell, log. More in \
            $XDG_CONFIG_HOME/cdscript/actions.conf (lines "name = command line", # for comments) or --action NAME=COMMAND; \
            a command runs with /bin/sh -c and CDSCRIPT_ID, CDSCRIPT_TITLE, CDSCRIPT_ENDED_AT, CDSCRIPT_TOKEN in its \
            environment. The log is standard output; problems go to standard error. SIGHUP reloads the actions; SIGTERM \
            stops after the running commands have exited (a second one stops at once, their ends taken over after the lease). \
            It also serves the stored countdowns on web pages, an OBS overlay and an HTTP API (docs/serve.md) at \
            --listen (127.0.0.1:8765 unless told), unless --no-web.
            """
    )

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var web: ServeWebOptions

    @Option(name: .customLong("action"), help: ArgumentHelp("Define (or redefine) an action: NAME=COMMAND, a /bin/sh command line. Repeatable.", valueName: "NAME=COMMAND"))
    var definitions: [String] = []

    @Option(name: .customLong("actions-file"), help: ArgumentHelp("The action configuration (default: $XDG_CONFIG_HOME/cdscript/actions.conf, else ~/.config/cdscript/actions.conf; a missing file defines nothing).", valueName: "PATH"), completion: .file())
    var actionsFile: String?

    @Option(help: ArgumentHelp("How long a claimed end is held before another serve or script may take it over (default 30 s; renewed while its commands run).", valueName: "DURATION"))
    var lease: String?

    func validate() throws {
        _ = try catalog()
        if let lease {
            let value = try DurationArgument.read(lease, as: "--lease", in: .tickInterval)
            guard value <= EndClaimRules.longestLease else { throw ValidationError("--lease must be at most 86400 s, got \(lease)") }
        }
    }

    /// The built-ins, the file's lines, then --action's (`ActionCatalogSource`).
    func catalog() throws -> ActionCatalog {
        do { return try ActionCatalogSource(file: actionsFile, definitions: definitions).load() } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        guard let startWeb = ServeWeb.start else {
            try ServeProgram.handOver(arguments: Array(CommandLine.arguments.dropFirst()))
        }
        let shared = try storeOptions.openShared()
        let served = EndActionServing.served(shared, location: StoreLocation(stateDir: storeOptions.stateDir))
        var configuration = EndActionRunner.Configuration(owner: ActionCatalogSource.owner())
        if let lease { configuration.lease = try DurationArgument.read(lease, as: "--lease", in: .tickInterval) }
        // Caught from here on, not only once the runner runs: a SIGTERM sent just after
        // "serving http://…" is printed must stop serve cleanly (exit 0). Not before the
        // store is open: Ctrl-C still ends a serve stuck reaching its store at once.
        EndActionRunner.catchSignals()
        // The pages and the API (ServeCommand+Web.swift): their own thread and store handle,
        // told of every change the runner's feed reports.
        let server = web.noWeb ? nil : try startWeb(webRequest(redis: shared.persistence is RedisCountdownStore))
        defer { server?.stop() }
        if let server { configuration.onChanges = { server.storeChanged($0) } }
        let actions = try catalog()
        try exitingAsCommand {
            try EndActionServing.run(served, configuration: configuration, catalog: actions) {
                server?.reloadTLS()
                return try self.catalog()
            }
        }
    }
}
