import ArgumentParser
import LuaHost
import ScriptRunning

/// `run`'s options for scripts from elsewhere: limits, the sandbox, the plugin path.
public struct HardeningOptions: ParsableArguments {
    public init() {}

    // .unconditional: `--budget -5` reaches validate() and its message, not "Missing value".
    // Off by default: --cpu-limit bounds every callback without tracing each instruction,
    // which halves the speed of Lua code (docs/hardening.md, "Which limit is which").
    @Option(parsing: .unconditional, help: ArgumentHelp("Lua instructions one callback (the main chunk, a hook, a formatter), with the callbacks and coroutines it causes, may run: a deterministic limit, at about half the speed for Lua code. 0 (the default): no count; --cpu-limit bounds each callback.", valueName: "N"))
    var budget: Int64 = 0

    @Option(name: .customLong("memory-limit"), parsing: .unconditional, help: ArgumentHelp("Memory the script's Lua state and the elements and text its view holds may take: bytes, or with K, M or G (512M); 0 for no limit.", valueName: "SIZE"))
    var memoryLimit: String = "512M"

    @Option(name: .customLong("cpu-limit"), parsing: .unconditional, help: ArgumentHelp("CPU seconds one callback, with all it causes (finalizers and loops in C included), may run before it fails; when even that cannot stop it, the run ends (exit 1). 0 for no limit.", valueName: "SECONDS"))
    var cpuLimit: Double = Self.defaultCPULimit

    /// The CPU-time limit per callback by default, in seconds.
    static let defaultCPULimit: Double = HardeningSettings.defaultCPULimit

    @Flag(help: "Remove io, os.execute, os.exit, os.remove, os.rename, package.loadlib, C modules and debug; refuse bytecode; read files only in the script's folder and the plugin folders; os.getenv only for locale, time zone and terminal variables.")
    var sandbox = false

    // Off by default: the store is shared by every script and command of the user,
    // so a sandboxed script could read, change, cancel or fill anyone's countdowns.
    @Flag(name: .customLong("allow-store"), help: "With --sandbox: let the script use the countdown store (--state-dir, --store), where it can fetch, change and cancel any stored countdown. Without it a sandboxed script's persistent countdowns are kept in memory for the run only.")
    var allowStore = false

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Also look for plugins in DIR (repeatable; after ./plugins and ~/.config/cdscript/plugins).", valueName: "DIR"), completion: .directory)
    var pluginPath: [String] = []

    public func validate() throws {
        guard budget >= 0 else { throw ValidationError("--budget must be 0 (no limit) or a positive number of instructions, got \(budget)") }
        _ = try Self.bytes(memoryLimit)
        guard cpuLimit.isFinite, cpuLimit == 0 || (cpuLimit >= 0.1 && cpuLimit <= 86400) else {
            throw ValidationError("--cpu-limit must be 0 (no limit) or a number of seconds from 0.1 to 86400, got \(cpuLimit)")
        }
    }

    var limits: ScriptLimits {
        ScriptLimits(memoryLimit: (try? Self.bytes(memoryLimit)) ?? ScriptLimits.defaultMemoryLimit, instructionBudget: budget, sandbox: sandbox)
    }

    /// Whether the run opens the countdown store: always, except under `--sandbox`
    /// without `--allow-store`, when persistent countdowns live in memory.
    var opensStore: Bool { !sandbox || allowStore }

    var pluginDirectories: [PluginDirectory] { PluginPath.standard(extra: pluginPath) }

    /// The limits as a run takes them.
    public var settings: HardeningSettings {
        HardeningSettings(limits: limits, cpuLimit: cpuLimit, opensStore: opensStore, pluginDirectories: pluginDirectories)
    }

    /// "512M" -> 536870912; plain numbers are bytes.
    public static func bytes(_ text: String) throws -> Int {
        guard let bytes = HardeningSettings.bytes(text) else {
            throw ValidationError("--memory-limit must be a size such as 512M, 1G or 1048576 (bytes), got '\(text)'")
        }
        return bytes
    }
}
