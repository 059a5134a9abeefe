import CountdownCore
import EventLoop
import Foundation
import LuaHost
import Testing
@testable import ScriptRunning

/// A script file in a folder of its own, its first version run in a host on a
/// virtual clock, with the run's loop, a plain view and a reloader, as `run --watch` wires them.
private final class WatchedRun {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reloader-\(UUID().uuidString)").path
    var script: String { folder + "/tea.lua" }
    let first: LuaHost
    let live: LiveHost
    let loop: MainLoop
    let view: ViewRuntime
    var reloader: ScriptReloader!

    init(_ source: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let scheduler = Scheduler(clock: VirtualClock())
        first = LuaHost(scheduler: scheduler)
        live = LiveHost(first)
        loop = try MainLoop(scheduler: scheduler)
        view = ViewRuntime(options: ViewSettings(plain: true), host: first, loop: loop)
        try save(source)
        #expect(first.runScript(atPath: script) == nil, "the first version runs")
        reloader = try ScriptReloader(path: script, arguments: [], live: live, loop: loop, view: view,
                                      makeHost: { LuaHost(scheduler: $0) }, close: { $0.closeState() })
    }

    func save(_ source: String) throws {
        try source.write(toFile: script, atomically: true, encoding: .utf8)
    }

    deinit {
        // A reload that succeeded closed the first version; the live one is closed here.
        if !live.host.vm.isClosed { live.host.closeState() }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

@Suite("A script reloaded on save (run --watch)")
struct ScriptReloaderTests {
    @Test("a saved version that runs replaces the old one, on a scheduler of its own that the loop now drives")
    func goodVersionReplaces() throws {
        let run = try WatchedRun("countdown.start{ id = 'tea', seconds = 60 }")
        let scheduler = run.loop.scheduler
        try run.save("countdown.start{ id = 'tea', seconds = 60 }\nversion = 2")
        run.reloader.reload()
        #expect(run.live.host !== run.first)
        #expect(run.first.vm.isClosed, "the old version's state is closed")
        #expect(run.loop.scheduler !== scheduler)
        #expect(run.loop.scheduler === run.live.host.scheduler)
        #expect(run.loop.scheduler.activeCount == 1, "the tea countdown goes on under the new version")
    }

    @Test("a saved version that does not load is thrown away: the old one and its countdowns run on")
    func badVersionIsThrownAway() throws {
        let run = try WatchedRun("countdown.start{ id = 'tea', seconds = 60 }")
        let scheduler = run.loop.scheduler
        try run.save("countdown.start{ id = = 'tea' }")
        run.reloader.reload()
        #expect(run.live.host === run.first)
        #expect(run.loop.scheduler === scheduler)
        #expect(scheduler.activeCount == 1)
    }
}
