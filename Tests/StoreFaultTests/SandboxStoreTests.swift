import Foundation
import Testing

extension StoreFaults {
    /// Issue 30: a sandboxed script fetched, changed and cancelled another script's
    /// stored countdown and filled the store. Under `--sandbox` the store is not
    /// opened unless `--allow-store` is given: persistent countdowns live in memory.
    @Suite("--sandbox keeps the store out of the script's reach", .serialized)
    struct SandboxStoreTests {
        /// A state directory holding "other", running for an hour, stored by an
        /// ordinary (unsandboxed) run.
        static func seededStore() throws -> String {
            let dir = Scratch.directory("sandbox")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                countdown.start{ id = "other", seconds = 3600, persist = true }
                os.exit(0)
                """)])
            #expect(seed.status == 0, "\(seed.stderr)")
            #expect(try stored(dir) == ["other": "running"])
            return dir
        }

        /// id -> state, as `cdscript list --json` shows the store.
        static func stored(_ dir: String) throws -> [String: String] {
            let listed = try LiveProcess.run(["list", "--json", "--state-dir", dir])
            #expect(listed.status == 0, "\(listed.stderr)")
            let entries = try #require(JSONSerialization.jsonObject(with: Data(listed.lines.joined().utf8)) as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: entries.map { ($0["id"] as? String ?? "?", $0["state"] as? String ?? "?") })
        }

        /// Tries to reach "other" (fetch, append, cancel) and stores "mine" for 0.2 s.
        static let intruder = Scratch.script("""
            local other, why = countdown.fetch("other")
            print("fetch other: " .. (other and "found" or tostring(why)))
            if other then
                other:append(60)
                other:cancel()
            end
            countdown.start{ id = "mine", seconds = 0.2, persist = true,
                             on_done = function(t, reason) print("mine " .. reason) end }
            """)

        @Test("a sandboxed script neither sees, changes nor cancels a stored countdown, and adds no row")
        func sandboxedScriptCannotReachTheStore() throws {
            let dir = try Self.seededStore()
            let run = try LiveProcess.run(["run", "--sandbox", "--state-dir", dir, Self.intruder])
            #expect(run.status == 0, "\(run.stderr)")
            // Persistent countdowns still work within the run, in memory.
            #expect(run.lines == ["fetch other: unknown", "mine finished"])
            #expect(run.stderr.contains("--sandbox keeps persistent countdowns in memory; add --allow-store to use the store"), "\(run.stderr)")
            #expect(try Self.stored(dir) == ["other": "running"])
        }

        @Test("with --allow-store the sandboxed script uses the store as any script does")
        func allowStoreOpensIt() throws {
            let dir = try Self.seededStore()
            let run = try LiveProcess.run(["run", "--sandbox", "--allow-store", "--state-dir", dir, Self.intruder])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.lines == ["fetch other: found", "mine finished"])
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            #expect(try Self.stored(dir) == ["mine": "finished"])
        }

        @Test("3,000 persistent countdowns from a sandboxed script leave the store's files as they were")
        func fillingTheStoreLeavesItUntouched() throws {
            let dir = try Self.seededStore()
            let files = { try FileManager.default.contentsOfDirectory(atPath: dir).sorted() }
            let before = try files()
            let database = dir + "/state.sqlite"
            let bytes = try #require(StoreInspection.sha(database))
            let run = try LiveProcess.run(["run", "--sandbox", "--state-dir", dir, Scratch.script("""
                for i = 1, 3000 do
                    countdown.start{ id = "fill" .. i, seconds = 0.1, persist = true }
                end
                print(#countdown.list(), "started")
                """)])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.lines == ["3000\tstarted"])
            #expect(try files() == before)
            #expect(StoreInspection.sha(database) == bytes)
            #expect(try Self.stored(dir) == ["other": "running"])
        }
    }
}
