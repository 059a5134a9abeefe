import Foundation
import GRDB
import Testing

/// Runs the binary with posix_spawn and waitpid, so that a death by signal (a
/// Swift trap is SIGILL or SIGTRAP) is told apart from an exit code.
enum SpawnedRun {
    struct Outcome {
        /// The exit code, or nil when a signal ended the process.
        var exitCode: Int32?
        var signal: Int32?
        var stderr: String
        var stdout: String = ""
    }

    /// With `user`, runs as that uid (through setpriv), so that permissions hold for a root test run too.
    static func run(_ arguments: [String], user: UInt32? = nil, timeout: Double = 20) -> Outcome {
        let spawnDir = Scratch.directory("spawn")
        let errPath = spawnDir + "/stderr", outPath = spawnDir + "/stdout"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let prefix = user.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []
        let argv = prefix + [LiveProcess.binary] + arguments
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, argv[0], &actions, nil, &cArgs, environ) == 0 else {
            return Outcome(exitCode: nil, signal: nil, stderr: "spawn failed")
        }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline { kill(pid, SIGKILL) }
            usleep(2000)
        }
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        if status & 0x7f == 0 { return Outcome(exitCode: (status >> 8) & 0xff, signal: nil, stderr: stderr, stdout: stdout) }
        return Outcome(exitCode: nil, signal: status & 0x7f, stderr: stderr, stdout: stdout)
    }
}

extension StoreFaults {
    @Suite("A damaged store never crashes a command", .serialized)
    struct DamagedRowTests {
        /// A real store with two running countdowns and one paused.
        static func seededStore() throws -> String {
            let dir = Scratch.directory("damaged")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                countdown.start{ id = "a", seconds = 3600, persist = true }
                countdown.start{ id = "b", seconds = 7200, persist = true }
                countdown.start{ id = "held", seconds = 90, persist = true }:pause()
                os.exit(0)
                """)])
            #expect(seed.status == 0, "\(seed.stderr)")
            return dir
        }

        static let fetchScript = Scratch.script("""
            local h = countdown.fetch("a", { every = 1 })
            if h then h:cancel() end
            """)

        /// `--state-dir` right after the command: after `run`'s script it would be the script's.
        static func withStore(_ command: [String], _ dir: String) -> [String] {
            [command[0], "--state-dir", dir] + command.dropFirst()
        }

        static let commands: [[String]] = [["list"], ["list", "--json"], ["clear"], ["run", fetchScript], ["cancel", "b"]]

        static let damages: [(String, String)] = [
            ("wall_deadline = 'abc'", "wall_deadline"),
            ("boot_deadline = -9223372036854775808", "boot_deadline"),
            ("state = 'paused', paused_remaining = 9223372036854775807", "paused_remaining"),
            ("every = 0.5", "every"),
            ("id = x'0102'", "id"),
            ("kind = 'wall', wall_deadline = -9223372036854775808", "wall_deadline"),
            ("total = -5", "total"),
        ]

        /// The ids `list` printed, as a table or as JSON.
        static func listedIDs(_ stdout: String) -> Set<String> {
            if let entries = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]] {
                return Set(entries.compactMap { $0["id"] as? String })
            }
            return Set(stdout.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) })
        }

        /// Commands that must read row a (or all rows): each names the bad row and exits 6.
        static let readingCommands: [[String]] = [["list"], ["list", "--json"], ["run", fetchScript], ["append", "a", "5"], ["pause", "a"], ["resume", "a"]]

        /// Damages row a of a seeded store, bypassing the schema's checks.
        static func damage(_ dir: String, _ update: String) throws {
            let queue = try DatabaseQueue(path: dir + "/state.sqlite")
            try queue.write { db in
                try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                try db.execute(sql: "UPDATE countdown SET \(update) WHERE id = 'a'")
            }
            try queue.close()
        }

        @Test("one bad row: every command names it (id, column, value, how to remove it), the others stay usable, nothing changes the file", arguments: damages)
        func badRow(update: String, column: String) throws {
            let dir = try Self.seededStore()
            let path = dir + "/state.sqlite"
            try Self.damage(dir, update)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for command in Self.readingCommands {
                let outcome = SpawnedRun.run(Self.withStore(command, dir))
                #expect(outcome.signal == nil, "\(command) died of signal \(outcome.signal ?? 0): \(outcome.stderr)")
                if column == "id" && command.count > 1 && command[0] != "list" { continue }  // a blob id is no "a"
                #expect(outcome.exitCode == 6, "\(command): \(outcome.stderr)")
                #expect(outcome.stderr.contains("column \(column) = "), "\(command): \(outcome.stderr)")
                #expect(outcome.stderr.contains("it was left as it is"), "\(outcome.stderr)")
                #expect(outcome.stderr.contains("cdscript clear"), "\(outcome.stderr)")
                #expect(!outcome.stderr.contains("move it away"), "\(command): \(outcome.stderr)")
                if command[0] == "list" {
                    // The readable ones are listed all the same.
                    #expect(Self.listedIDs(outcome.stdout) == ["b", "held"], "\(command): \(outcome.stdout)")
                }
                let after = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(before == after, "\(command) changed the damaged store")
            }
            // A sound row is changed as ever.
            let appended = SpawnedRun.run(Self.withStore(["append", "b", "5"], dir))
            #expect(appended.exitCode == 0, "\(appended.stderr)")
            // `cancel ID`, as the message says, removes the bad row; the store is whole again.
            if column != "id" {
                #expect(SpawnedRun.run(Self.withStore(["list"], dir)).stderr.contains("`cdscript cancel 'a'` removes it"))
                let cancelled = SpawnedRun.run(Self.withStore(["cancel", "a"], dir))
                #expect(cancelled.exitCode == 0, "\(cancelled.stderr)")
                let listed = SpawnedRun.run(Self.withStore(["list"], dir))
                #expect(listed.exitCode == 0, "\(listed.stderr)")
                #expect(Self.listedIDs(listed.stdout) == ["b", "held"], "\(listed.stdout)")
            }
        }

        @Test("clear removes every unreadable row, naming each, and keeps the sound ones", arguments: damages)
        func clearRemovesBadRows(update: String, column: String) throws {
            let dir = try Self.seededStore()
            try Self.damage(dir, update)
            let cleared = SpawnedRun.run(Self.withStore(["clear"], dir))
            #expect(cleared.exitCode == 0, "\(cleared.stderr)")
            #expect(cleared.stdout.contains("removed 1 unreadable countdown: "), "\(cleared.stdout)")
            #expect(cleared.stdout.contains("column \(column) = "), "\(cleared.stdout)")
            let listed = SpawnedRun.run(Self.withStore(["list", "--json"], dir))
            #expect(listed.exitCode == 0, "\(listed.stderr)")
            #expect(Self.listedIDs(listed.stdout) == ["b", "held"])
        }

        @Test("watch shows a bad row as unreadable, names it, and follows the others")
        func watchSkipsBadRow() throws {
            let dir = try Self.seededStore()
            try Self.damage(dir, "total = -5")
            let watch = try LiveProcess(["watch", "--plain", "--state-dir", dir])
            defer { watch.signal(SIGKILL) }
            #expect(watch.waitForLine { $0 == "a: unreadable" } != nil, "\(watch.texts) \(watch.stderr)")
            #expect(watch.waitForLine { $0.hasPrefix("b: running") } != nil, "\(watch.texts)")
            #expect(SpawnedRun.run(Self.withStore(["pause", "b"], dir)).exitCode == 0)
            #expect(watch.waitForLine { $0.hasPrefix("b: paused") } != nil, "\(watch.texts)")
            #expect(SpawnedRun.run(Self.withStore(["cancel", "a"], dir)).exitCode == 0)
            #expect(watch.waitForLine { $0 == "a: removed" } != nil, "\(watch.texts)")
            watch.signal(SIGTERM)
            #expect(watch.wait() == 143)
            #expect(watch.stderr.contains("column total = -5"), "\(watch.stderr)")
        }

        @Test("a process following its countdowns survives another writer's bad row for one: named, skipped, the other still followed")
        func followerSurvivesBadRow() throws {
            let dir = Scratch.directory("follow-bad")
            let run = try LiveProcess(["--state-dir", dir, Scratch.script("""
                countdown.start{ id = "f", seconds = 2, persist = true, on_done = function() print("f done") end }
                countdown.start{ id = "g", seconds = 8, persist = true, on_done = function() print("g done") end,
                  on_tick = function(t) if t.remaining > 8.2 then print("g followed") end end }
                print("started")
                """)])
            defer { run.signal(SIGKILL) }
            #expect(run.waitForLine { $0 == "started" } != nil, "\(run.stderr)")
            let queue = try DatabaseQueue(path: dir + "/state.sqlite")
            try queue.write { db in
                try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                try db.execute(sql: "UPDATE countdown SET wall_deadline = 9223372036854775807 WHERE id = 'f'")
            }
            try queue.close()
            // Another writer's append to g is still followed. (g runs 8 s: on a loaded machine
            // the damage and the append, two processes, took longer than the 2 s it once ran.)
            let appended = SpawnedRun.run(Self.withStore(["append", "g", "1"], dir))
            #expect(appended.exitCode == 0, "\(appended.stderr)")
            #expect(run.waitForLine { $0 == "g followed" } != nil, "\(run.texts) \(run.stderr)")
            let status = run.wait(timeout: 30)
            #expect(status == 6, "\(run.stderr)")
            #expect(Set(run.texts) == ["started", "g followed", "f done", "g done"], "\(run.texts)")
            #expect(run.stderr.contains("'f'") && run.stderr.contains("column wall_deadline"), "\(run.stderr)")
        }

        @Test("a store folder without permissions is exit 6, not an empty store")
        func unreadableFolder() throws {
            let dir = try Self.seededStore()
            // Root reads through mode 000: as root, run the commands as nobody, owner of the folder.
            let user: UInt32? = getuid() == 0 ? 65534 : nil
            if let user { chown(dir, user, user) }
            chmod(dir, 0)
            defer { chmod(dir, 0o700) }
            for command in [["list"], ["list", "--json"], ["clear"]] {
                let outcome = SpawnedRun.run(command + ["--state-dir", dir], user: user)
                #expect(outcome.exitCode == 6, "\(command): \(outcome.stderr)")
            }
        }

        @Test("random byte flips of a real store: every command ends with an exit code, never a signal")
        func byteFlips() throws {
            let dir = try Self.seededStore()
            let original = try Data(contentsOf: URL(fileURLWithPath: dir + "/state.sqlite"))
            var generator = SystemRandomNumberGenerator()
            let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
            var rng = SplitMix(seed: seed)
            let variants = Int(ProcessInfo.processInfo.environment["CDSCRIPT_FUZZ_SCALE"] ?? "1").map { 25 * max(1, $0) } ?? 25
            for variant in 0..<variants {
                var bytes = [UInt8](original)
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    // Past the 100-byte header most of the time: rows, not the file format.
                    let at = rng.next() % 8 == 0 ? Int(rng.next() % 100) : 100 + Int(rng.next() % UInt64(bytes.count - 100))
                    bytes[at] ^= UInt8(1 << (rng.next() % 8))
                }
                let copy = Scratch.directory("flip")
                try Data(bytes).write(to: URL(fileURLWithPath: copy + "/state.sqlite"))
                for command in Self.commands {
                    let outcome = SpawnedRun.run(Self.withStore(command, copy))
                    #expect(outcome.signal == nil, "seed \(seed) variant \(variant) \(command): signal \(outcome.signal ?? 0): \(outcome.stderr)")
                }
            }
        }
    }
}

/// A small seeded generator, so a failing flip can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
