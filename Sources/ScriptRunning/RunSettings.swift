#if canImport(Glibc)
import Glibc
#endif
import CountdownCore
import EventLoop
import LuaHost
import TerminalView

/// How a script's run (`run`, `timer`, `stopwatch`) is set up, as plain values:
/// what the command line reads from its options, and what a run started
/// without the parser gives just as well (`ScriptRun.run(_:load:)`).
public struct RunSettings {
    /// Where persistent countdowns are kept.
    public var store: RunStoreSettings
    /// Limits, the sandbox and the plugin folders.
    public var hardening: HardeningSettings
    /// Time flows this many times faster (`--speed`); nil: real time.
    public var speed: Double?
    /// Terminal or plain lines, colours.
    public var view: ViewSettings
    /// The page that shows the view too (`--serve`).
    public var serve: ViewServeSettings?
    /// `--coverage`: count the lines of the script's files that run.
    public var coverage: Bool
    /// `--watch`: the script file reloaded when it is saved.
    public var watching: WatchedScript?

    public init(store: RunStoreSettings, hardening: HardeningSettings, speed: Double? = nil, view: ViewSettings = ViewSettings(),
                serve: ViewServeSettings? = nil, coverage: Bool = false, watching: WatchedScript? = nil) {
        self.store = store
        self.hardening = hardening
        self.speed = speed
        self.view = view
        self.serve = serve
        self.coverage = coverage
        self.watching = watching
    }
}

/// The script a run reloads on save (`run --watch`), with its arguments.
public struct WatchedScript {
    public var path: String
    public var arguments: [String]

    public init(path: String, arguments: [String]) {
        self.path = path
        self.arguments = arguments
    }
}

/// A run's limits for scripts from elsewhere: memory, instructions, the sandbox,
/// CPU time per callback, whether the store may be used, the plugin folders.
public struct HardeningSettings {
    public var limits: ScriptLimits
    /// CPU seconds per callback; 0: none.
    public var cpuLimit: Double
    /// False under `--sandbox` without `--allow-store`: persistent countdowns live in memory.
    public var opensStore: Bool
    public var pluginDirectories: [PluginDirectory]

    /// The CPU-time limit per callback by default, in seconds (`--cpu-limit`'s default).
    public static let defaultCPULimit: Double = 10

    /// By default as `cdscript run` without options: 512 MiB, 10 s of CPU per callback, the store, the standard plugin folders.
    public init(limits: ScriptLimits = ScriptLimits(memoryLimit: ScriptLimits.defaultMemoryLimit), cpuLimit: Double = Self.defaultCPULimit, opensStore: Bool = true,
                pluginDirectories: [PluginDirectory] = PluginPath.standard(extra: [])) {
        self.limits = limits
        self.cpuLimit = cpuLimit
        self.opensStore = opensStore
        self.pluginDirectories = pluginDirectories
    }

    /// "512M" -> 536870912 (K, M and G, a trailing B allowed, any case); plain
    /// numbers are bytes. Nil for anything else, or a size past `Int.max`.
    public static func bytes(_ text: String) -> Int? {
        // Read as bytes: `uppercased()` and a `[Character: Int]` of the units
        // cost every run 0.5 million instructions (Unicode's case tables, and a
        // scan of the binary's conformances to make the dictionary's type).
        var digits = Substring(text).utf8[...]
        if let last = digits.last, last | 0x20 == UInt8(ascii: "b") { digits.removeLast() }
        var scale = 1
        if let last = digits.last {
            switch last | 0x20 {
            case UInt8(ascii: "k"): scale = 1 << 10
            case UInt8(ascii: "m"): scale = 1 << 20
            case UInt8(ascii: "g"): scale = 1 << 30
            default: break
            }
            if scale != 1 { digits.removeLast() }
        }
        guard let value = Int(Substring(digits)), value >= 0, value <= Int.max / scale else { return nil }
        return value * scale
    }
}

/// How a view is drawn: full screen on a terminal, or one line per change.
public struct ViewSettings: Equatable {
    /// Lines even on a terminal (`--plain`).
    public var plain: Bool
    /// No colours (`--no-color`; `NO_COLOR` has the same effect).
    public var noColor: Bool

    public init(plain: Bool = false, noColor: Bool = false) {
        self.plain = plain
        self.noColor = noColor
    }

    /// True when the view is printed as lines: asked for, or stdout is no terminal.
    public var printsLines: Bool { plain || !TerminalSession.isTerminal(STDOUT_FILENO) }

    /// The controller the view draws through, and the terminal it takes over
    /// (nil when it prints lines to stdout).
    public func makeView() -> (controller: ViewController, session: TerminalSession?) {
        guard !printsLines else {
            return (ViewController(output: .plain { line in
                StandardOutput.write(line + "\n", what: "the view's lines")
            }), nil)
        }
        let session = TerminalSession()
        let noColorVariable = ProcessEnvironment.value("NO_COLOR").map { !$0.isEmpty } ?? false
        return (ViewController(output: .screen(session, colours: !noColor && !noColorVariable)), session)
    }

    /// What a full-screen view does on the run loop's observed signals: redraw on
    /// a resize, give the terminal back before Ctrl-Z stops the process, and take
    /// it again (redrawing all of it) when the process continues.
    public static func follow(_ signal: Int32, session: TerminalSession?, controller: ViewController) {
        switch signal {
        case SIGWINCH:
            controller.redrawAll()
        case SIGTSTP:
            // Running Lua code, or the watchdog, may have carried it out already.
            guard MainLoop.takeStopRequest() else { return }
            session?.suspend()
            raise(SIGSTOP)
        case SIGCONT:
            // The scheduler's catch-up pass has put the true remaining time in place.
            if let session, session.isActive {
                session.resume()
                controller.redrawAll()
            }
        default:
            break
        }
    }
}

/// `run --serve HOST:PORT`: where the page of the script's view is served, and by what.
public struct ViewServeSettings {
    /// HOST:PORT, checked when the options were read.
    public var address: String
    /// The control token's file (`--token-file`); nil: serve-token in the state folder.
    public var tokenFile: String?
    /// Names the page may be reached by besides the address (`--allow-host`).
    public var allowedHosts: [String]
    /// The state folder (`--state-dir`), for the token's default place.
    public var stateDir: String?
    /// The program that serves the page (cdscript-serve, beside cdscript).
    public var program: String
    /// Why `program` cannot be run, or nil: a run that cannot serve its page ends
    /// before it starts (exit 14).
    public var programProblem: String?

    public init(address: String, tokenFile: String? = nil, allowedHosts: [String] = [], stateDir: String? = nil,
                program: String, programProblem: String? = nil) {
        self.address = address
        self.tokenFile = tokenFile
        self.allowedHosts = allowedHosts
        self.stateDir = stateDir
        self.program = program
        self.programProblem = programProblem
    }
}
