import ArgumentParser
import CountdownCore
import FoundationEssentials
import LuaHost
import StoreViews

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

    /// Lines a plugin printed while loading that are shown (on stderr); more are counted.
    static let printedLinesShown = 20
    /// Characters of each printed line shown.
    static let printedLineLength = 500

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Also look for plugins in DIR (repeatable).", valueName: "DIR"), completion: .directory)
    var pluginPath: [String] = []

    func run() throws {
        let dirs = PluginPath.standard(extra: pluginPath)
        emit("plugin path:", what: "the plugin list")
        for dir in dirs {
            let exists = FileManager.default.fileExists(atPath: dir.path)
            emit("  \(VisibleText.escaped(dir.path)) (\(dir.origin))\(exists ? "" : " (missing)")", what: "the plugin list")
        }
        emit("plugins:", what: "the plugin list")
        var failures = 0
        for plugin in PluginPath.listing(dirs) {
            // Names, paths, descriptions and printed lines come from files and
            // plugins: escaped, so that none sends a sequence to the terminal.
            let name = VisibleText.escaped(plugin.name)
            var line = "  \(name)  \(VisibleText.escaped(plugin.location))"
            if plugin.origin != "built-in" { line += " (\(plugin.origin))" }
            if plugin.shadowed {
                line += " (hidden by an earlier one)"
                emit(line, what: "the plugin list")
                continue
            }
            // A fresh host per plugin: loading one cannot affect the next. Sandboxed:
            // listing must not hand a plugin's top-level code io, os.execute or the
            // environment. Counted: no CPU-time limit runs here to stop a plugin that loops.
            var limits = ScriptLimits.countedDefaults
            limits.sandbox = true
            let host = LuaHost(scheduler: Scheduler(clock: VirtualClock()), limits: limits)
            host.plugins.path = dirs
            // Kept bounded: a plugin printing in a loop holds no memory here.
            var printed: [String] = []
            var notShown = 0
            host.plugins.captureOutput { text in
                if printed.count < Self.printedLinesShown { printed.append(String(text.prefix(Self.printedLineLength))) } else { notShown += 1 }
            }
            let loaded = host.plugins.loadPlugin(named: plugin.name)
            for text in printed {
                printError("cdscript: plugin \(name) printed while being listed: \(VisibleText.escaped(text))")
            }
            if notShown > 0 { printError("cdscript: plugin \(name) printed \(notShown) more lines") }
            switch loaded {
            case .success(let description):
                if let description { line += " - \(VisibleText.escaped(description))" }
                emit(line, what: "the plugin list")
            case .failure(let failure):
                failures += 1
                emit(line + " - FAILS TO LOAD", what: "the plugin list")
                printError("cdscript: plugin \(name) fails to load: \(VisibleText.escaped(failure.message))")
            }
        }
        if failures > 0 { throw ExitCode(ExitStatus.scriptError.rawValue) }
    }
}
