import Foundation
import GRDB
import Testing

extension StoreFaults {
    /// The persistent starts of one callback are written together when it returns
    /// (issue 41): whatever way the callback ends, what it started is stored.
    @Suite("A script's persistent starts are stored together, however its callback ends", .serialized)
    struct BatchedStartTests {
        @Test("a loop of 3,000 persistent starts ending in os.exit(0) stores all 3,000")
        func osExitStoresAll() throws {
            let dir = Scratch.directory("batch-exit")
            let run = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                for i = 1, 3000 do countdown.start{ id = "s" .. i, seconds = 600, persist = true } end
                os.exit(0)
                """)], timeout: 120)
            #expect(run.status == 0, "\(run.stderr)")
            let (integrity, rows) = try StoreInspection.read(dir + "/state.sqlite")
            #expect(integrity == ["ok"])
            #expect(rows.count == 3000)
        }

        @Test("a main chunk that raises after 500 starts stores those 500 and says nothing more about the store")
        func errorStoresWhatWasStarted() throws {
            let dir = Scratch.directory("batch-error")
            let run = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                for i = 1, 500 do countdown.start{ id = "s" .. i, seconds = 600, persist = true } end
                error("stop here")
                """)], timeout: 120)
            #expect(run.status != 0)
            #expect(run.stderr.contains("stop here"))
            #expect(!run.stderr.contains("store"), "\(run.stderr)")
            let (_, rows) = try StoreInspection.read(dir + "/state.sqlite")
            #expect(rows.count == 500)
        }

        @Test("a fetch's every is the viewer's own: the stored one stays for the next fetch")
        func fetchEveryIsNotStored() throws {
            let dir = Scratch.directory("fetch-every")
            let start = try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "x", seconds = 600, every = 2, persist = true }; os.exit(0)"#)])
            #expect(start.status == 0, "\(start.stderr)")
            let viewer = try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.fetch("x", { every = 5 }); os.exit(0)"#)])
            #expect(viewer.status == 0, "\(viewer.stderr)")
            let queue = try DatabaseQueue(path: dir + "/state.sqlite")
            defer { try? queue.close() }
            let every = try queue.read { db in try Int64.fetchOne(db, sql: "SELECT every FROM countdown WHERE id = 'x'") }
            #expect(every == 2_000_000_000)
        }
    }
}
