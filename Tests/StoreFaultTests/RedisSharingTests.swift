import Foundation
import RedisTestServer
import Testing

extension RedisStoreFaults {
    /// The same live truth through a real redis-server this suite starts on a free
    /// loopback port (and always stops).
    @Suite("One live truth across machines: the Redis store, end to end", .serialized)
    final class RedisSharingTests {
        let server: RedisServer
        var store: [String] { ["--store", server.url] }

        init() throws { server = try RedisServer() }

        @Test("append, pause, resume and cancel from a third shell reach two running processes within 100 ms")
        func thirdShellControlsTwoProcesses() throws {
            try Live.controlFromAThirdShell(store: store)
        }

        @Test("list, cancel and clear work on Redis; CDSCRIPT_STORE chooses it; the record lives on the server")
        func commands() throws {
            #expect(try LiveProcess.run(store + [Scratch.script(#"countdown.start{ id = "r1", seconds = 100, persist = true }; countdown.start{ id = "r2", seconds = 0.1, persist = true, on_done = function() os.exit(0) end }"#)]).status == 0)
            let listed = try LiveProcess.run(["list"], environment: ["CDSCRIPT_STORE": server.url])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.lines.contains { $0.hasPrefix("r1") && $0.contains("running") && $0.contains("00:01:39") }, "\(listed.lines)")
            #expect(listed.lines.contains { $0.hasPrefix("r2") && $0.contains("finished") }, "\(listed.lines)")
            #expect(try server.cli("HEXISTS", "cdscript:countdowns", "r1") == "1")
            #expect(try LiveProcess.run(["clear"] + store).lines == ["removed 1 finished countdown: r2"])
            #expect(try LiveProcess.run(["append", "r1", "10"] + store).status == 0)
            #expect(try LiveProcess.run(["cancel", "r1"] + store).lines == ["cancelled r1"])
            #expect(try LiveProcess.run(["cancel", "r1"] + store).status == 7)
            #expect(try LiveProcess.run(["pause", "r1"] + store).status == 7)
        }

        @Test("watch follows a Redis store: other machines' changes show at once")
        func watchFollowsRedis() throws {
            #expect(try LiveProcess.run(store + [Scratch.script(#"countdown.start{ id = "w", seconds = 50, persist = true }; os.exit(0)"#)]).status == 0)
            let watch = try LiveProcess(["watch", "w", "gone"] + store)
            defer { watch.signal(SIGKILL) }
            #expect(watch.waitForLine { $0.hasPrefix("w: running  00:00:4") } != nil, "\(watch.texts) \(watch.stderr)")
            #expect(watch.waitForLine { $0 == "gone: not stored" } != nil, "\(watch.texts)")
            let count = watch.lines.count
            let appended = try Live.command(["append", "w", "100"] + store)
            let line = try #require(Live.next(watch, after: count) { $0.hasPrefix("w: running  00:02:") }, "\(watch.texts)")
            #expect(line.at.timeIntervalSince(appended.ended) < 0.1)
            #expect(try Live.command(["pause", "w"] + store).status == 0)
            #expect(Live.next(watch, after: count) { $0.hasPrefix("w: paused  00:02:") } != nil, "\(watch.texts)")
            watch.signal(SIGTERM)
            #expect(watch.wait() == 143)
        }

        @Test("Redis unreachable: commands exit 6; a run goes on in memory and exits 6; so does rediss:// to a closed port, never showing the password")
        func unreachable() throws {
            let url = "redis://127.0.0.1:\(try RedisServer.freePort())"
            for args in [["list"], ["append", "x", "1"], ["pause", "x"], ["cancel", "x"]] {
                let r = try LiveProcess.run(args + ["--store", url])
                #expect(r.status == 6, "\(args): \(r.stderr)")
                #expect(r.stderr.contains("127.0.0.1"), "\(r.stderr)")
            }
            let run = try LiveProcess.run(["--store", url, Scratch.script(#"countdown.start{ id = "m", seconds = 0.3, persist = true, on_done = function(t, why) print("done " .. why) end }"#)])
            #expect(run.status == 6, "\(run.stderr)")
            #expect(run.lines == ["done finished"])
            let closed = try RedisServer.freePort()
            let tls = try LiveProcess.run(["list", "--store", "rediss://:pw@127.0.0.1:\(closed)"])
            #expect(tls.status == 6)
            #expect(tls.stderr.contains("cannot connect to rediss://:***@127.0.0.1:\(closed)") && !tls.stderr.contains("pw"), "\(tls.stderr)")
        }

        @Test("20 processes appending at once lose no second")
        func twentyConcurrentAppenders() throws {
            #expect(try LiveProcess.run(store + [Scratch.script(#"countdown.start{ id = "many", seconds = 1000, persist = true }; os.exit(0)"#)]).status == 0)
            let appenders = try (0..<20).map { _ in try LiveProcess(["append", "many", "1"] + store) }
            for p in appenders { #expect(p.wait(timeout: 60) == 0, "\(p.stderr)") }
            let json = try LiveProcess.run(["list", "--json"] + store)
            let entries = try #require(JSONSerialization.jsonObject(with: Data(json.lines.joined().utf8)) as? [[String: Any]])
            #expect(entries.first { $0["id"] as? String == "many" }?["total"] as? Double == 1020)
        }

        @Test("kill -9 of a client in the middle of its changes leaves a whole record that others go on changing")
        func killNineMidChange() throws {
            #expect(try LiveProcess.run(store + [Scratch.script(#"countdown.start{ id = "k", seconds = 1000, persist = true }; os.exit(0)"#)]).status == 0)
            let writer = try LiveProcess(store + [Scratch.script("""
                local h = assert(countdown.fetch("k"))
                for i = 1, 100000 do h:append(1); if i == 20 then print("going") end end
                """)])
            #expect(writer.waitForLine { $0 == "going" } != nil, "\(writer.stderr)")
            writer.signal(SIGKILL)
            writer.wait()
            let after = try #require(Double(try LiveProcess.run(["list", "--json"] + store).lines.joined()
                .split(separator: "\"total\" : ").last?.prefix { $0.isNumber || $0 == "." } ?? ""))
            #expect(after >= 1020 && after == after.rounded(), "every append is whole: \(after)")
            #expect(try LiveProcess.run(["append", "k", "1"] + store).status == 0)
            let again = try LiveProcess.run(["list", "--json"] + store).lines.joined()
            #expect(again.contains("\"total\" : \(Int(after) + 1)"), "\(again)")
        }

        @Test("redis-server stopped for 3 s and continued, then restarted: runs go on, follow changes after, lose nothing")
        func serverStoppedAndRestarted() throws {
            let a = try LiveProcess(store + [SharingScripts.runner(start: 12)])
            defer { a.signal(SIGKILL) }
            #expect(a.waitForLine { $0.hasPrefix("tick") } != nil, "\(a.stderr)")
            server.signal(SIGSTOP)
            let before = try StoreFaults.LiveSharingTests.contextSwitches(a.pid)
            Thread.sleep(forTimeInterval: 3)
            let during = try StoreFaults.LiveSharingTests.contextSwitches(a.pid) - before
            server.signal(SIGCONT)
            #expect(during <= 12, "\(during) wake-ups in 3 s with the server stopped (ticks every 1 s): \(a.stderr)")
            // A call that met the stopped server waited at most the command timeout (1 s),
            // then the countdown ran on here.
            #expect(a.texts.filter { $0.hasPrefix("tick") }.count >= 3, "ticks went on: \(a.texts)")
            // The first change after SIGCONT arrives at the latest with the next reconnection
            // attempt (backoff up to 2 s) when the run had gone offline; then within 100 ms.
            var count = a.lines.count
            var shown = SharingScripts.lastShown(a)
            #expect(try Live.command(["append", "x", "30"] + store).status == 0)
            #expect(Live.next(a, after: count, timeout: 5) { (SharingScripts.remaining($0) ?? 0) > shown + 15 } != nil, "\(a.texts) \(a.stderr)")
            count = a.lines.count
            shown = SharingScripts.lastShown(a)
            let appended = try Live.command(["append", "x", "30"] + store)
            #expect(appended.status == 0, "\(appended.stderr)")
            let tick = try #require(Live.next(a, after: count) { (SharingScripts.remaining($0) ?? 0) > shown + 15 }, "\(a.texts) \(a.stderr)")
            #expect(tick.at.timeIntervalSince(appended.ended) < 0.1)

            // A restart with persistence: the countdown is still there, and the run reconnects.
            server.stop()
            try server.start()
            let listed = try LiveProcess.run(["list"] + store)
            #expect(listed.lines.contains { $0.hasPrefix("x ") && $0.contains("running") }, "\(listed.lines) \(listed.stderr)")
            Thread.sleep(forTimeInterval: 0.5)
            count = a.lines.count
            #expect(try Live.command(["pause", "x"] + store).status == 0)
            #expect(Live.next(a, after: count, timeout: 6) { SharingScripts.remaining($0).map { $0 != $0.rounded() } ?? false } != nil, "after the restart the run follows again: \(a.texts) \(a.stderr)")
            #expect(try Live.command(["cancel", "x"] + store).status == 0)
            #expect(a.wait(timeout: 8) == 0, "\(a.stderr)")
            #expect(a.texts.filter { $0.hasPrefix("done") } == ["done cancelled"])
        }

        @Test("a run that changes its countdown while the server is stopped keeps the change, sends it when the server is back, then follows changes again")
        func offlineChangeSentOnReconnect() throws {
            let a = try LiveProcess(store + [Scratch.script("""
                local x = countdown.start{ id = "x", seconds = 30, persist = true,
                  on_tick = function(t) print(("tick %.3f"):format(t.remaining)) end,
                  on_done = function(t, why) print("done " .. why) end }
                local appended = false
                countdown.start{ seconds = 60, every = 0.5, on_tick = function(t)
                  if not appended and t.elapsed >= 1 then appended = true; x:append(1); print("self-append") end
                end }
                """)])
            defer { a.signal(SIGKILL) }
            #expect(a.waitForLine { $0.hasPrefix("tick") } != nil, "\(a.stderr)")
            server.signal(SIGSTOP)
            #expect(a.waitForLine(timeout: 5) { $0 == "self-append" } != nil, "\(a.texts)")
            Thread.sleep(forTimeInterval: 2)
            server.signal(SIGCONT)
            // The queued append reaches the server with the next reconnection attempt (at most 2 s of backoff).
            let deadline = Date().addingTimeInterval(6)
            var total = 0.0
            while Date() < deadline {
                let listed = try LiveProcess.run(["list", "--json"] + store).lines.joined()
                total = Double(listed.split(separator: "\"total\" : ").last?.prefix { $0.isNumber || $0 == "." } ?? "") ?? 0
                if total == 31 { break }
                Thread.sleep(forTimeInterval: 0.2)
            }
            #expect(total == 31, "the change made while the server was stopped is stored once")
            Thread.sleep(forTimeInterval: 0.3)
            let count = a.lines.count
            let before = SharingScripts.lastShown(a)
            let appended = try Live.command(["append", "x", "10"] + store)
            #expect(appended.status == 0)
            let tick = try #require(Live.next(a, after: count) { (SharingScripts.remaining($0) ?? 0) > before + 5 }, "\(a.texts) \(a.stderr)")
            #expect(tick.at.timeIntervalSince(appended.ended) < 0.1, "followed again \(tick.at.timeIntervalSince(appended.ended)) s after the command")
            a.signal(SIGTERM)
            #expect(a.wait() == 143)
            #expect(a.stderr.contains("is back; 1 change made meanwhile applied"), "\(a.stderr)")
        }

        @Test("a process whose wall clock is 7 s off (faketime) shows the same remaining time, on the ticks' real instants")
        func wallClockSevenSecondsOff() throws {
            let script = Scratch.script("""
                local h = countdown.fetch("f", { every = 0.2, on_tick = function(t) print(("tick %.1f"):format(t.remaining)) end })
                if not h then countdown.start{ id = "f", seconds = 4, every = 0.2, persist = true,
                  on_tick = function(t) print(("tick %.1f"):format(t.remaining)) end } end
                """)
            let a = try LiveProcess(store + [script])
            defer { a.signal(SIGKILL) }
            #expect(a.waitForLine { $0.hasPrefix("tick") } != nil, "\(a.stderr)")
            let b = try LiveProcess.faketime("+7s", store + [script])
            defer { b.signal(SIGKILL) }
            #expect(a.wait(timeout: 10) == 0 && b.wait(timeout: 10) == 0, "\(a.stderr) \(b.stderr)")
            // The same tick value arrives at the same real instant in both processes.
            var differences: [Double] = []
            for line in b.lines where line.text.hasPrefix("tick") && line.text != b.lines.first?.text {
                guard let mine = a.lines.first(where: { $0.text == line.text }) else { continue }
                differences.append(b.started.addingTimeInterval(line.at).timeIntervalSince(a.started.addingTimeInterval(mine.at)))
            }
            #expect(differences.count >= 8, "\(a.texts) \(b.texts)")
            let median = differences.sorted()[differences.count / 2]
            #expect(abs(median) < 0.02, "median difference \(median) s: \(differences)")
        }
    }
}

extension LiveProcess {
    /// The binary under libfaketime with its wall clock moved by `offset`
    /// (`faketime -f`), its boot and monotonic clocks left real.
    static func faketime(_ offset: String, _ arguments: [String]) throws -> LiveProcess {
        // The `faketime` wrapper, not a bare LD_PRELOAD: without the FAKETIME_SHARED
        // segment it sets up, Debian's libfaketime 0.9.10 leaves a Swift program
        // with no command-line arguments (checked on this machine).
        try LiveProcess(arguments, environment: ["DONT_FAKE_MONOTONIC": "1"], launcher: ["/usr/bin/faketime", "-f", offset])
    }
}
