import CountdownCore
import Foundation
import LuaHost
import Testing
import TerminalView

/// What the view holds for a script (each element, not only its text) counts
/// against --memory-limit: elements made in a loop stop with an error that
/// names the limit, long before the host holds far more than the limit.
@Suite("View elements count against the memory limit")
struct ViewMemoryTests {
    func host(limit: Int, plain: Bool) -> LuaHost {
        let host = LuaHost(scheduler: Scheduler(clock: VirtualClock()), limits: ScriptLimits(memoryLimit: limit, instructionBudget: 100_000_000))
        let output: ViewController.Output = plain ? .plain { _ in } : .screen(VirtualTerminal(columns: 40, rows: 7), colours: false)
        host.installView(ViewController(output: output))
        return host
    }

    /// Makes up to 200 000 progress bars (a few MB of text at most, so only the
    /// per-element charge can stop it under 8 MB).
    static let loop = """
        made = 0
        for i = 1, 200000 do
          -- The id and the options are made inside pcall too: which allocation meets
          -- the limit first, the element's charge or one of Lua's own (the string
          -- table doubling at 2^17 ids), depends on a few hundred bytes of the
          -- host's own tables (about 100 bytes moved it from one to the other);
          -- either is refused.
          local ok, err = pcall(function() return view.progress{ id = "p" .. i, value = 0.5 } end)
          if not ok then refused = err break end
          made = made + 1
        end
        assert(refused, "no refusal after " .. made .. " elements")
        assert(refused:find("view.progress: memory limit exceeded: the view's elements and text", 1, true)
          and refused:find("would pass the --memory-limit of 8 MB", 1, true)
          or refused:find("memory limit exceeded: the script's Lua memory would pass 8 MB", 1, true)
          or refused == "not enough memory", refused)
        """

    @Test("elements made in a loop are refused at the limit, screen and plain", arguments: [false, true])
    func elementsAgainstTheLimit(plain: Bool) {
        let limit = 8 << 20
        let host = host(limit: limit, plain: plain)
        let failure = host.runScript(source: Data(Self.loop.utf8), chunkName: "=loop", arguments: ["loop"])
        #expect(failure == nil, "\(failure?.message ?? "")")
        let made = host.viewController?.model.elements.count ?? 0
        // At ViewModel.bytesPerElement each, 8 MB holds at most this many.
        #expect(made > 1000 && made <= limit / ViewModel.bytesPerElement, "\(made)")
        #expect(host.vm.memoryInUse <= limit)
    }

    @Test("a fresh view (each test of cdscript test gets one) gives back what the old one's elements were charged")
    func replacedViewReleases() {
        let host = host(limit: 8 << 20, plain: false)
        #expect(host.runScript(source: Data(Self.loop.utf8), chunkName: "=loop", arguments: ["loop"]) == nil)
        host.replaceViewController(ViewController(output: .screen(VirtualTerminal(columns: 40, rows: 7), colours: false)))
        let failure = host.runScript(source: Data("""
            for i = 1, 1000 do view.progress{ id = "again" .. i, value = 1 } end
            """.utf8), chunkName: "=again", arguments: ["again"])
        #expect(failure == nil, "\(failure?.message ?? "")")
    }

    @Test("titles set and bells rung in a loop between two frames are held once: the last title, one bell")
    func titlesAndBellsBetweenFrames() {
        let h = ViewHarness()
        #expect(h.run("""
            view.label{ id = "a", text = "x" }
            local pad = string.rep("t", 1000)
            for i = 1, 10000 do view.title(pad .. i) view.bell() end
            """) == nil)
        _ = h.screen
        // Before, every title waited for the frame: 10 MB of OSC sequences.
        #expect(h.terminal.output.utf8.count < 20_000, "\(h.terminal.output.utf8.count) bytes written")
        #expect(h.terminal.title == String(repeating: "t", count: 1000) + "10000")
        #expect(h.terminal.bells == 1)
    }

    @Test("view.paused_text's text counts against the limit too")
    func pausedTextAgainstTheLimit() {
        let host = host(limit: 8 << 20, plain: false)
        let failure = host.runScript(source: Data("""
            -- One Lua string, copied by the host once for each field it is given to.
            local big = string.rep("p", 3 * 1024 * 1024)
            view.paused_text{ text = big }
            local ok, err = pcall(view.paused_text, { text = big, resumed_text = big })
            assert(not ok and err:find("view.paused_text: memory limit exceeded", 1, true), tostring(err))
            view.paused_text{ text = "short" }
            """.utf8), chunkName: "=paused", arguments: ["paused"])
        #expect(failure == nil, "\(failure?.message ?? "")")
    }
}
