import ArgumentParser
import ScriptRunning
import CommandLineWords

/// `cdscript plugins`: the plugins `use` would find, where from, and whether each loads.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the plugins found on the plugin path and the built-in ones.",
        discussion: """
            Searched in order: ./plugins, $XDG_CONFIG_HOME/cdscript/plugins (default
            ~/.config/cdscript/plugins), each --plugin-path DIR, then CDSCRIPT_PLUGIN_PATH
            (folders separated by ':'), then the built-in plugins. The first one found wins.
            Each plugin is loaded (not set up) under --sandbox, with the run's memory limit
            and instruction budget, so that listing runs no plugin with full access; one
            that fails is named with its file and line, and the command exits 2. What a
            plugin prints (or warns) while loading is shown on stderr, escaped.
            """
    )

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Also look for plugins in DIR (repeatable).", valueName: "DIR"), completion: .directory)
    var pluginPath: [String] = []

    func run() throws {
        try exitingAsCommand { try PluginListing.list(extra: pluginPath) }
    }
}
