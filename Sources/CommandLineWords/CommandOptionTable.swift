/// Every command's options as they are spelt on the command line, and which take
/// a value: what `LeadingOptions` and `OptionHints` read. Written here rather than
/// read from ArgumentParser at run time, whose only description of a command's
/// options is outside its stability promise; CommandOptionTableTests holds every
/// row to what ArgumentParser declares, so a command or option added without a
/// row here fails a test.
enum CommandOptionTable {
    /// The options of the command named `name` (not `help`), ArgumentParser's
    /// `--help`, `-h` and `--version` included; nil for a name that is not a command's.
    static func options(of name: String) -> CommandOptions? {
        commands[name].map { $0.merging(CommandOptions(flags: ["--help", "-h", "--version"])) }
    }

    // The option groups several commands share (StoreOptions, HardeningOptions, ViewOptions, ...).

    static let redisTLS = CommandOptions(
        values: ["--redis-cacert", "--redis-cacert-dir", "--redis-cert", "--redis-key", "--redis-sni"],
        flags: ["--redis-insecure"])
    static let store = CommandOptions(values: ["--state-dir", "--store", "--redis-wait", "--redis-wait-timeout"])
        .merging(redisTLS)
    static let hardening = CommandOptions(values: ["--budget", "--memory-limit", "--cpu-limit", "--plugin-path"],
                                          flags: ["--sandbox", "--allow-store"])
    static let view = CommandOptions(flags: ["--plain", "--no-color"])
    /// What the built-in timer and stopwatch share (BuiltinScriptOptions).
    static let builtinScript = store.merging(hardening).merging(view)
        .merging(CommandOptions(values: ["--speed", "--every", "--title", "--quit-after"], flags: ["--eject", "--no-window-title"]))

    /// The names of `CDScript`'s subcommands in their order, but those starting with `_`.
    static let commandNames = ["run", "test", "list", "cancel", "clear", "plugins", "timer", "stopwatch", "new", "start",
                               "append", "pause", "resume", "watch", "status", "serve", "check"]

    /// By command name: every subcommand of `CDScript` whose name does not start with `_`.
    static let commands: [String: CommandOptions] = [
        "run": store.merging(hardening).merging(view).merging(CommandOptions(
            values: ["--speed", "--serve", "--token-file", "--allow-host", "-e"], flags: ["--coverage", "--watch"],
            positionalEndsOptions: true)),
        "test": redisTLS.merging(CommandOptions(
            values: ["-o", "--output", "-Xoutput", "--Xoutput", "-p", "--pattern", "--exclude-pattern", "-m", "--lpath",
                     "--cpath", "--helper", "-Xhelper", "--Xhelper", "-r", "--run", "-f", "--config-file", "-C", "--directory",
                     "-e", "--seed", "--repeat", "--filter", "--filter-out", "-t", "--tags", "--exclude-tags", "--lua",
                     "--coverage-config-file", "--lang", "--loaders", "--junit", "--budget", "--cpu-limit", "--memory-limit",
                     "--state-dir", "--store", "--plugin-path"],
            flags: ["-v", "--verbose", "--no-verbose", "-R", "--recursive", "--no-recursive", "--shuffle", "--no-shuffle",
                    "--shuffle-files", "--no-shuffle-files", "--shuffle-tests", "--no-shuffle-tests", "--sort", "--no-sort",
                    "--sort-files", "--no-sort-files", "--sort-tests", "--no-sort-tests", "-k", "--keep-going",
                    "--no-keep-going", "-l", "--list", "--defer-print", "--no-defer-print", "--suppress-pending",
                    "--no-suppress-pending", "--auto-insulate", "--no-auto-insulate", "--ignore-lua", "-c", "--coverage",
                    "--no-coverage", "--lazy", "--no-lazy", "-s", "--enable-sound", "--no-enable-sound", "--tap",
                    "--cdscript-names", "--update-snapshots"])),
        "list": store.merging(CommandOptions(flags: ["--json"])),
        "cancel": store.merging(CommandOptions(values: ["--match"], flags: ["--all"])),
        "clear": store,
        "plugins": CommandOptions(values: ["--plugin-path"]),
        "timer": builtinScript.merging(CommandOptions(
            values: ["--id", "--critical", "--text", "--then", "--rounds", "--outfile", "--exec-shell"],
            flags: ["--blink", "--wait", "--overtime", "--no-bell"], rest: ["--exec"])),
        "stopwatch": builtinScript.merging(CommandOptions(values: ["--laps-file"])),
        "new": CommandOptions(),
        "start": store.merging(CommandOptions(values: ["--title", "--every", "--action"], flags: ["--overtime", "--replace"])),
        "append": store,
        "pause": store,
        "resume": store,
        "watch": store.merging(view).merging(CommandOptions(
            values: ["--bar", "--format", "--separator", "--critical", "--match"], flags: ["--ticks"])),
        "status": store.merging(CommandOptions(values: ["--format", "--separator", "--for"], flags: ["--json"])),
        "serve": store.merging(CommandOptions(
            values: ["--listen", "--token-file", "--allow-host", "--tls-cert", "--tls-key", "--action", "--actions-file", "--lease"],
            flags: ["--no-web", "--public-read"])),
        "check": store.merging(CommandOptions(flags: ["--full", "--json"])),
    ]
}
