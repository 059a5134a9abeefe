import Foundation
import Testing

/// A run that stores one countdown, says so, and runs on until it is killed.
private let holdingScript = "countdown.start{ id = 'zzz-held', seconds = 3600, persist = true } print('stored')"

/// Starts the holding run on `dir`, waits until it stored its countdown, and ends it with `signal`.
private func runHolding(_ dir: String, endedBy signal: Int32) throws -> (pid: Int32, status: Int32) {
    let process = try LiveProcess(["--state-dir", dir, Scratch.script(holdingScript)])
    #expect(process.waitForLine { $0 == "stored" } != nil, "\(process.stderr)")
    #expect(storeWriters(dir).count == 1 && storeWriters(dir).first?.contains(":\(process.pid):") == true,
            "a writing process is not registered: \(storeWriters(dir))")
    process.signal(signal)
    return (process.pid, process.wait())
}

extension StoreFaults {
    @Suite("After a crash the next command checks the store; after a normal end there is nothing to check", .serialized)
    struct CrashCheckTests {
        @Test("runs that end normally, by Ctrl-C or by SIGTERM leave no registration behind")
        func normalEnds() throws {
            let dir = try seededStore(10, in: Scratch.directory("crash"))
            #expect(storeWriters(dir) == [])
            for signal in [SIGINT, SIGTERM] {
                let (_, status) = try runHolding(dir, endedBy: signal)
                #expect(status == 128 + signal)
                #expect(storeWriters(dir) == [], "after signal \(signal)")
            }
        }

        @Test("kill -9 leaves the registration; the next command checks the store, clears it and goes on quietly")
        func killedThenWhole() throws {
            let dir = try seededStore(200, in: Scratch.directory("crash"))
            let (pid, status) = try runHolding(dir, endedBy: SIGKILL)
            #expect(status == SIGKILL)
            #expect(storeWriters(dir).first?.contains(":\(pid):") == true)
            let check = try LiveProcess.run(["check", "--state-dir", dir])
            #expect(check.status == 0)
            #expect(check.lines.contains { $0.contains("process \(pid) ended without closing the store") }, "\(check.lines)")
            #expect(storeWriters(dir).count == 1, "check changed the registrations")
            let list = try LiveProcess.run(["list", "--state-dir", dir])
            #expect(list.status == 0)
            #expect(list.stderr.isEmpty, "\(list.stderr)")
            #expect(list.lines.contains { $0.hasPrefix("zzz-held") })
            #expect(storeWriters(dir) == [])
        }

        @Test("a file damaged when a process died with it open is refused by the next command and every one after, naming file and process; check exits 9")
        func killedThenDamaged() throws {
            let dir = try seededStore(2_000, in: Scratch.directory("crash"))
            let control = Scratch.directory("crash-control")
            try FileManager.default.copyItem(atPath: dir + "/state.sqlite", toPath: control + "/state.sqlite")
            let (pid, _) = try runHolding(dir, endedBy: SIGKILL)
            let path = dir + "/state.sqlite"
            for file in [path, control + "/state.sqlite"] { try damageMiddlePage(of: file) }
            // Without a crash nothing checks the file: a change that touches one row goes through.
            #expect(try LiveProcess.run(["append", "c1", "1", "--state-dir", control]).status == 0)

            let before = StoreInspection.sha(path)
            for command in [["append", "c1", "1"], ["list"], ["append", "c1", "1"]] {
                let result = try LiveProcess.run(command + ["--state-dir", dir])
                #expect(result.status == 6, "\(command): \(result.stderr)")
                #expect(result.stderr.contains(path), "\(command): \(result.stderr)")
                #expect(result.stderr.contains("after cdscript process \(pid) ended without closing it"), "\(command): \(result.stderr)")
            }
            #expect(StoreInspection.sha(path) == before, "the damaged file was changed")
            let check = try LiveProcess.run(["check", "--state-dir", dir])
            #expect(check.status == 9, "\(check.lines)")
        }
    }
}
