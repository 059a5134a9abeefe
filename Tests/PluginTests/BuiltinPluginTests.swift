import CountdownCore
import Foundation
import LuaHost
import TerminalView
import Testing

@Suite("Built-in plugins: bell, notify, exec, log")
struct BuiltinPluginTests {
    @Test("bell rings through the open view, at done only, for the followed id")
    func bellUsesView() {
        let bed = HostBed()
        let terminal = VirtualTerminal(columns: 40, rows: 10)
        let controller = ViewController(output: .screen(terminal, colours: false))
        bed.host.installView(controller)
        bed.mustRun("""
            view.label{ id = "l", text = "tea" }
            use("bell", { id = "tea" })
            countdown.start{ id = "tea", seconds = 2 }
            countdown.start{ id = "coffee", seconds = 1 }
            countdown.start{ id = "cancelled", seconds = 1 }:cancel()
            """)
        bed.advance(to: 3)
        controller.render()
        #expect(terminal.bells == 1)
    }

    @Test("built-in plugins call the library as it was before the script ran, not the script's replacements")
    func pluginsIgnoreReplacedLibrary() {
        let bed = HostBed()
        bed.mustRun("""
            local saved = { string.gsub, string.format, table.sort, table.concat, math.floor, pairs, ipairs, tostring,
              countdown.on, countdown.formatter, math.type }
            local function hijacked() error("hijacked", 2) end
            string.gsub, string.format, table.sort, table.concat, math.floor = hijacked, hijacked, hijacked, hijacked, hijacked
            pairs, ipairs, tostring = hijacked, hijacked, hijacked
            countdown.on, countdown.formatter, math.type = hijacked, hijacked, hijacked
            use("formats")
            use("log", { path = "/dev/null" })
            local ok, err = pcall(use, "bell", { colour = "red" })
            local humanized, clock = countdown.format(90061.5, "humanized"), countdown.format(3725, "clock")
            countdown.start{ id = "tea", seconds = 1 }
            string.gsub, string.format, table.sort, table.concat, math.floor, pairs, ipairs, tostring,
              countdown.on, countdown.formatter, math.type = table.unpack(saved)
            print(ok, err)
            print(humanized, clock)
            """)
        bed.advance(to: 2)
        #expect(bed.errors.isEmpty, "\(bed.errors)")
        #expect(bed.lines.first?.hasSuffix("bell: unknown option 'colour'; known: id") == true, "\(bed.lines)")
        #expect(bed.lines.dropFirst().first == "in 1 day 62:05", "\(bed.lines)")
    }

    @Test("without a view, bell writes to the terminal only when stdout is one")
    func bellWithoutView() {
        let bed = HostBed()
        bed.mustRun("""
            local bell = use("bell")
            countdown.start{ seconds = 1 }
            """)
        bed.advance(to: 2)
        #expect(bed.errors.isEmpty)
        #expect(bed.run("use('bell', { colour = 'red' })")?.message.contains("bell: unknown option 'colour'; known: id") == true)
    }

    @Test("notify without the program prints one clear line saying why")
    func notifyMissingProgram() {
        let bed = HostBed()
        bed.mustRun("""
            use("notify", { program = "cdscript-no-such-notifier" })
            countdown.start{ id = "tea", seconds = 1 }
            """)
        bed.advance(to: 2)
        #expect(bed.reports.notices == ["cdscript notify: no desktop notification for countdown \"tea\": cdscript-no-such-notifier is not installed (on Debian: apt install libnotify-bin)"])
    }

    @Test("notify and exec run their command from an argument list, never through a shell")
    func execAndNotifyRun() throws {
        let dir = try temporaryFolder()
        let recorder = dir + "/record.sh"
        // One write per call: the two commands run at once, and appends of separate
        // pieces from both would interleave.
        try write("#!/bin/sh\nline=''\nfor a in \"$@\"; do line=\"$line$a|\"; done\nprintf '%s\\n' \"$line\" >> \"\(dir)/calls\"\n", to: recorder)
        chmod(recorder, 0o755)
        let bed = HostBed()
        bed.mustRun("""
            use("exec", { command = { "\(recorder)", "done: {id}", "$(touch \(dir)/pwned); *" }, id = "tea" })
            use("notify", { program = "\(recorder)", title = "Tea", message = "ready" })
            countdown.start{ id = "tea", seconds = 1 }
            """)
        bed.advance(to: 2)
        #expect(bed.reports.notices.isEmpty, "\(bed.reports.notices)")
        var calls: [String] = []
        for _ in 0..<200 {
            calls = ((try? String(contentsOfFile: dir + "/calls", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if calls.count == 2 { break }
            usleep(10_000)
        }
        #expect(Set(calls) == ["done: tea|$(touch \(dir)/pwned); *|", "Tea|ready|"])
        #expect(!FileManager.default.fileExists(atPath: dir + "/pwned"))
    }

    @Test("exec refuses a command that is not a list of strings, and --sandbox refuses to run it")
    func execChecks() {
        let bed = HostBed()
        #expect(bed.run("use('exec', { command = 'rm -rf /' })")?.message.contains("exec: 'command' must be a non-empty list of strings") == true)
        #expect(bed.run("use('exec', { command = { 'echo', 3 } })")?.message.contains("exec: command[2] must be a string, got number") == true)
        let sandboxed = HostBed(limits: ScriptLimits(sandbox: true))
        sandboxed.mustRun("use('exec', { command = { 'true' } }) countdown.start{ id = 'x', seconds = 1 }")
        sandboxed.advance(to: 2)
        #expect(sandboxed.reports.notices == ["cdscript exec: not run for countdown \"x\": running commands is disabled by --sandbox"])
    }

    /// The JSON objects of a file of JSON lines, as `log` writes them.
    static func jsonLines(at path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    @Test("log writes every event as one JSON line")
    func logWritesJSONLines() throws {
        let dir = try temporaryFolder()
        let path = dir + "/events.jsonl"
        let bed = HostBed()
        bed.mustRun("""
            use("log", { path = "\(path)" })
            countdown.start{ id = "q\\"uote", seconds = 2 }
            countdown.start{ seconds = 5 }:cancel()
            """)
        bed.advance(to: 3)
        let objects = try Self.jsonLines(at: path)
        #expect(objects.map { $0["event"] as? String } == ["start", "tick", "start", "tick", "cancel", "tick", "done"])
        #expect(objects[0]["id"] as? String == "q\"uote")
        #expect(objects[0]["time"] as? String == "2027-01-01T00:00:00.000Z")
        #expect(objects[6]["remaining"] as? Double == 0)
        #expect(objects[2]["id"] == nil)
    }

    @Test("log's JSON encoder, compiled at its first line, calls none of the library functions a script replaced before it")
    func logEncoderKeepsTheLibrary() throws {
        let dir = try temporaryFolder()
        let path = dir + "/events.jsonl"
        let bed = HostBed()
        bed.mustRun("""
            use("log", { path = "\(path)" })
            local function replaced() error("a script's replacement ran") end
            string.gsub, string.format, string.byte, table.concat, table.sort = replaced, replaced, replaced, replaced, replaced
            pairs, ipairs, tostring, type, math.type = replaced, replaced, replaced, replaced, replaced
            countdown.start{ id = "tab\\tand \\"quote\\"", seconds = 1.5 }
            """)
        bed.advance(to: 2)
        let objects = try Self.jsonLines(at: path)
        #expect(objects.map { $0["event"] as? String } == ["start", "tick", "tick", "done"])
        #expect(objects[0]["id"] as? String == "tab\tand \"quote\"")
        #expect(objects[0]["remaining"] as? Double == 1.5)
    }

    @Test("log says once why it cannot write, and the countdowns run on")
    func logUnwritable() {
        let bed = HostBed()
        bed.mustRun("""
            use("log", { path = "/nonexistent-folder/x.jsonl" })
            countdown.start{ seconds = 2, on_done = function() print("done") end }
            """)
        bed.advance(to: 3)
        #expect(bed.lines == ["done"])
        #expect(bed.reports.notices.count == 1)
        #expect(bed.reports.notices.first?.hasPrefix("cdscript log: cannot open /nonexistent-folder/x.jsonl: No such file or directory") == true)
    }
}
