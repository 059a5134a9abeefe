import Foundation
import Testing

/// The case, end to end: a script making progress bars over several
/// ticks under --memory-limit 50M. The host's memory stays near the limit.
@Suite("--memory-limit bounds the host's memory for view elements: the real binary")
struct ViewMemoryLimitTests {
    @Test("progress bars made over ticks stop with an error naming the limit; the peak resident size stays bounded")
    func elementsOverTicks() throws {
        // At most a million elements (about 450 MB before elements were charged,
        // when 50 MB of ids alone would have allowed five million).
        let script = try BinaryRunner.script("""
            local made, refused = 0, nil
            -- Room to report in: at the refusal, the view and Lua are at the limit.
            local reserve = string.rep("r", 1 << 20)
            local function peak()
              local f = io.open("/proc/self/status") local s = f:read("a") f:close()
              return s:match("VmHWM:%s*(%d+)")
            end
            local handle
            handle = countdown.start{ id = "grow", seconds = 60, every = 0.1, on_tick = function()
              for i = 1, 100000 do
                if made >= 1000000 then break end
                local ok, err = pcall(view.progress, { id = "p" .. made, value = 0.5 })
                if not ok then refused = err break end
                made = made + 1
              end
              if refused or made >= 1000000 then
                reserve = nil
                collectgarbage()
                io.stderr:write("made ", made, "\\nrefused ", tostring(refused), "\\npeak ", peak(), " kB\\n")
                if handle then handle:cancel() end
                view.close()
              end
            end }
            """)
        let result = try BinaryRunner.run(["run", "--memory-limit", "50M", script], timeout: 120)
        let stderr = result.stderr
        // Refused by the view's share of the limit, or, when the collector was behind
        // (under load), by Lua's own share first, which ends the hook: either way the
        // limit is named, and how to raise it.
        let byView = stderr.contains("refused view.progress: memory limit exceeded: the view's elements and text")
            && stderr.contains("would pass the --memory-limit of 50 MB")
        let byLua = stderr.contains("memory limit exceeded: the script's Lua memory would pass 50 MB (raise it with --memory-limit)")
        #expect(byView || byLua, "\(stderr)")
        // The script reports its peak when the view refused it (Lua's refusal ends the hook first).
        let peak = stderr.split(separator: "\n").first { $0.hasPrefix("peak ") }
            .flatMap { Int($0.split(separator: " ")[1]) } ?? (byView ? Int.max : 0)
        // 50 MB charged, plus the binary's own ~26 MB, with room for the estimate being low.
        #expect(peak < 150_000, "peak resident \(peak) kB; \(stderr)")
        print("view memory: peak resident \(peak) kB under --memory-limit 50M")
    }
}
