import Foundation
import Testing

extension StoreFaults {
    @Suite("Several processes share one store", .serialized)
    struct SharedStoreTests {
        @Test("a countdown started in one process is the same countdown when fetched in another")
        func startHereFetchThere() throws {
            let dir = Scratch.directory("shared")
            let starter = try LiveProcess(["--state-dir", dir, Scratch.script("""
                local h = countdown.start{ id = "x", seconds = 30, persist = true }
                print(h:remaining())
                os.exit(0)
                """)])
            #expect(starter.wait() == 0, "\(starter.stderr)")
            let startLine = try #require(starter.lines.first)
            let started = starter.started.addingTimeInterval(startLine.at)
            Thread.sleep(forTimeInterval: 0.5)
            let fetcher = try LiveProcess(["--state-dir", dir, Scratch.script("""
                local h = countdown.fetch("x", { on_tick = function(t) print(("%.3f %.3f"):format(t.remaining, t.elapsed)) end })
                os.exit(0)
                """)])
            #expect(fetcher.wait() == 0, "\(fetcher.stderr)")
            let line = try #require(fetcher.lines.first)
            let values = line.text.split(separator: " ").compactMap { Double($0) }
            let expected = 30 - fetcher.started.addingTimeInterval(line.at).timeIntervalSince(started)
            #expect(values.count == 2)
            #expect(abs(values[0] - expected) < 0.3, "remaining \(values[0]), expected about \(expected)")
            #expect(abs(values[0] + values[1] - 30) < 0.001, "elapsed continues from the first process")
        }

        // Six, not four: each migration is a transaction of its own, and the more
        // processes race, the more migrations one of them can lose before it wins.
        @Test("six processes creating the same new store at once all succeed")
        func concurrentCreation() throws {
            for round in 0..<5 {
                let dir = Scratch.directory("create-race")
                let script = Scratch.script(#"countdown.start{ id = arg[1], seconds = 100, persist = true }; os.exit(0)"#)
                let processes = try (0..<6).map { try LiveProcess(["--state-dir", dir, script, "p\($0)"]) }
                for (i, p) in processes.enumerated() {
                    #expect(p.wait(timeout: 60) == 0, "round \(round), process \(i): \(p.stderr)")
                    #expect(p.stderr.isEmpty, "round \(round), process \(i): \(p.stderr)")
                }
                let (integrity, rows) = try StoreInspection.read(dir + "/state.sqlite")
                #expect(integrity == ["ok"])
                #expect(Set(rows.keys) == Set((0..<6).map { "p\($0)" }), "round \(round)")
            }
        }

        @Test("four processes writing at once lose no update and never fail on a locked database")
        func concurrentWriters() throws {
            let dir = Scratch.directory("writers")
            #expect(try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "shared", seconds = 1000, persist = true }; os.exit(0)"#)]).status == 0)
            let writer = Scratch.script("""
                local me = arg[1]
                local h = assert(countdown.fetch("shared"))
                for i = 1, 50 do
                  h:append(1)
                  countdown.start{ id = me .. "-" .. i, seconds = 100, persist = true }
                end
                print("done")
                os.exit(0)
                """)
            let processes = try (0..<4).map { try LiveProcess(["--state-dir", dir, writer, "w\($0)"]) }
            for (i, p) in processes.enumerated() {
                #expect(p.wait(timeout: 60) == 0, "writer \(i): \(p.stderr)")
                #expect(p.texts == ["done"])
                #expect(p.stderr.isEmpty, "writer \(i): \(p.stderr)")
            }
            let (integrity, rows) = try StoreInspection.read(dir + "/state.sqlite")
            #expect(integrity == ["ok"])
            let total: Int64 = rows["shared"]?.total ?? -1
            #expect(total == Int64(1200) * 1_000_000_000, "\(rows["shared"]?.description ?? "missing")")
            #expect(rows.count == 1 + 4 * 50)
        }
    }
}
