#if canImport(Glibc)
import Glibc
#endif
import CommandEnding
import CountdownCore
import EventLoop
import FoundationEssentials
import LuaHost
import TerminalView

/// The host a run works with now: the first, or the version of the script that
/// the last reload (`run --watch`) brought. Closures that outlive a reload (the
/// store's change feed, the memory charge of held changes) reach the host
/// through it.
final class LiveHost {
    private(set) var host: LuaHost
    /// Hook errors of the versions reloaded away: the run's exit status counts them.
    private(set) var earlierHookErrors = 0

    init(_ host: LuaHost) { self.host = host }

    func replace(with host: LuaHost) {
        earlierHookErrors += self.host.hookErrorCount
        self.host = host
    }

    var hookErrorCount: Int { earlierHookErrors + host.hookErrorCount }
}

/// `cdscript run --watch SCRIPT`: reloads the script when it, or a module or
/// plugin it required from its folder or the plugin folders, is saved.
///
/// A reload runs the new version in a fresh Lua state on a fresh scheduler. While
/// its main chunk runs, a start under the id of a running countdown goes on with
/// that countdown's deadline (or paused time) and length, with the new hooks and
/// interval; anonymous countdowns are matched in start order. Countdowns with an
/// id that the new version does not start keep running without hooks of their own;
/// anonymous ones left over end. The view starts over for the new version. When the
/// new version fails to load or its main chunk raises, it is thrown away: the old
/// version, its view and its countdowns run on, and the error shows on the view's
/// bottom row (and on stderr) until the next save.
final class ScriptReloader {
    let path: String
    let arguments: [String]
    let live: LiveHost
    let loop: MainLoop
    let view: ViewRuntime
    /// Makes a host like the run's first one (limits, plugin folders, store) on a scheduler.
    let makeHost: (Scheduler) -> LuaHost
    /// Closes a host's Lua state under the finalizers' watchdog.
    let close: (LuaHost) -> Void
    private let files: FileChangeWatch

    init(path: String, arguments: [String], live: LiveHost, loop: MainLoop, view: ViewRuntime,
         makeHost: @escaping (Scheduler) -> LuaHost, close: @escaping (LuaHost) -> Void) throws {
        self.path = path
        self.arguments = arguments
        self.live = live
        self.loop = loop
        self.view = view
        self.makeHost = makeHost
        self.close = close
        files = try FileChangeWatch()
        follow(script: Self.linkAndTarget(scriptPath))
        loop.watch(files.descriptor) { [unowned self] in
            let saved = files.drain()
            if saved.contains(where: isFollowed) { reload() }
        }
    }

    /// The reloader of a run's script (`run --watch`), closing each host it
    /// replaces as the run closes its own; exit 5 when the files cannot be watched.
    static func forRun(path: String, arguments: [String], live: LiveHost, loop: MainLoop, view: ViewRuntime,
                       makeHost: @escaping (Scheduler) -> LuaHost) throws(CommandExit) -> ScriptReloader {
        do {
            return try ScriptReloader(path: path, arguments: arguments, live: live, loop: loop, view: view,
                                      makeHost: makeHost, close: { ScriptRun.closeState(of: $0) })
        } catch {
            printError("cdscript: --watch: \(error)")
            throw CommandExit(.systemError)
        }
    }

    private var scriptPath: String { Self.absolute(path) }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The files the running version is made of: the script (and the file it
    /// links to, when it is a symbolic link), and the modules
    /// and plugins it required (wherever `require` found them: the plugin
    /// folders, `package.path`, which starts with the current folder).
    private var followed: Set<String> = []

    /// Follows the current version's files: `script` (the link and the target it
    /// was read through), its modules and plugins. Their folders are watched, so
    /// that a file replaced by a rename (an editor's save) is seen too.
    private func follow(script: [String]) {
        followed = Set(script + live.host.loadedModuleFiles().map(Self.absolute))
        var folders = Set(followed.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
        // Not resolved (a link caught between its removal and its new making):
        // the folders watched stay watched, the old target's among them.
        if script.count < 2 { folders.formUnion(files.watchedFolders) }
        files.watch(folders: folders)
    }

    /// `path`, and the file it resolves to when that is another: saving the
    /// target (in whatever folder) and making a new link in the link's place
    /// both change what the script is.
    static func linkAndTarget(_ path: String) -> [String] {
        guard let resolved = realpath(path, nil) else { return [path] }
        defer { free(resolved) }
        return [path, String(cString: resolved)]
    }

    private func isFollowed(_ saved: String) -> Bool {
        followed.contains(Self.absolute(saved))
    }

    /// Runs the saved version; keeps the old one when it fails.
    func reload() {
        let old = live.host
        let contents = view.controller.startOver()
        let scheduler = Scheduler(clock: old.scheduler.clock)
        let new = makeHost(scheduler)
        new.carryOver = CountdownCarryOver(old.carriedCountdowns())
        view.attach(new)
        // Signals, the CPU limit and Ctrl-Z reach the new version's Lua code from
        // its first line (its script, or a first tick, may never return).
        new.vm.takeSignals()
        // The target as the script is read, not once it has run: a link being replaced
        // meanwhile (`ln -sf`: removed, then made again) resolves to nothing, and
        // following nothing would unwatch the target's folder, missing a save there
        // (the link's new making reloads again, through the new target).
        let script = Self.linkAndTarget(scriptPath)
        if let failure = new.runScript(atPath: path, arguments: arguments, regularFileOnly: true) {
            old.vm.takeSignals()
            close(new)
            view.giveBack(to: old)
            view.controller.restore(contents)
            // Interrupted by a signal: the run ends now, and the new version did nothing wrong.
            if MainLoop.terminatingSignal != nil { return }
            let message = Self.describe(failure)
            printError("cdscript: \(VisibleText.escapedKeepingLayout(message)); the previous version runs on")
            view.controller.showError("reload failed: \(VisibleText.escaped(LuaHost.splitTraceback(message).0)); the previous version runs on")
            return
        }
        new.adoptUnclaimedCountdowns()
        loop.scheduler = scheduler
        live.replace(with: new)
        close(old)
        follow(script: script)
    }

    static func describe(_ failure: ScriptFailure) -> String {
        switch failure.kind {
        case .unreadable, .syntax: return failure.message
        case .runtime: return "error: \(failure.message)"
        }
    }
}
