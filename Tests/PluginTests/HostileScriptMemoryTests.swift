import CountdownCore
import Foundation
import LuaHost
import Testing
import TerminalView

/// Text the view holds for a script counts against its memory limit, beside
/// its Lua memory: labels of 60 MB cannot pile up past --memory-limit.
@Suite("Text handed to the view counts against the memory limit")
struct HostileScriptMemoryTests {
    func host(limit: Int) -> LuaHost {
        let scheduler = Scheduler(clock: VirtualClock())
        let host = LuaHost(scheduler: scheduler, limits: ScriptLimits(memoryLimit: limit, instructionBudget: 10_000_000))
        host.installView(ViewController(output: .screen(VirtualTerminal(columns: 40, rows: 7), colours: false)))
        return host
    }

    @Test("labels, button labels and titles of 20 MB each stop at the limit with a clear error; replacing text releases the old")
    func labelsAgainstTheLimit() {
        let host = host(limit: 100 << 20)
        let failure = host.runScript(source: Data("""
            local big = string.rep("x", 20 * 1024 * 1024)
            made = 0
            for i = 1, 40 do
              local ok, err = pcall(view.label, { id = "l" .. i, text = big .. i })
              if not ok then refused = err break end
              made = made + 1
            end
            ok_title, title_err = pcall(view.title, big .. "t")
            ok_button, button_err = pcall(view.button, { id = "b", label = big .. "b", on_press = function() end })
            -- Shrinking a label frees room: the same text can then go elsewhere.
            view.set("l1", { text = "small" })
            ok_after = pcall(view.label, { id = "again", text = big .. "again" })
            assert(made >= 1 and made < 5, "made " .. made)
            assert(refused and refused:find("memory limit exceeded", 1, true), refused)
            assert(not ok_title and title_err:find("memory limit exceeded", 1, true), tostring(title_err))
            assert(not ok_button and button_err:find("memory limit exceeded", 1, true), tostring(button_err))
            assert(ok_after, "after shrinking a label, room for another")
            """.utf8), chunkName: "=labels", arguments: ["labels"])
        #expect(failure == nil, "\(failure?.message ?? "")")
        // The Lua memory plus the view's text stay under the limit.
        #expect(host.vm.memoryInUse <= 100 << 20)
    }
}
