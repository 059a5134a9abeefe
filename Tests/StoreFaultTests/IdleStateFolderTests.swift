import Foundation
import Testing

extension StoreFaults {
    /// An idle run costs nothing whatever happens to the folder its store would live
    /// in. Measured as the process's own CPU time and its main thread's voluntary
    /// context switches (one per wake-up of its `poll`), not wall time, so the
    /// bounds hold on a busy machine.
    @Suite("An idle run uses no CPU, whatever happens around its state folder")
    struct IdleStateFolderTests {
        /// CPU seconds (user + system) the process has used so far.
        static func cpuSeconds(_ pid: Int32) -> Double {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return -1 }
            let fields = text[text.index(after: close)...].split(separator: " ")
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            return (Double(fields[11]) ?? 0) / ticks + (Double(fields[12]) ?? 0) / ticks
        }

        /// Times the main thread went to sleep and was woken.
        static func wakeups(_ pid: Int32) -> Int {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8) else { return -1 }
            let line = text.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") }
            return line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? -1
        }

        /// Waits until the process has used no CPU for 0.3 s (its start is over), at most 8 s.
        static func settle(_ pid: Int32) {
            var last = cpuSeconds(pid)
            let deadline = Date().addingTimeInterval(8)
            while Date() < deadline {
                Thread.sleep(forTimeInterval: 0.3)
                let now = cpuSeconds(pid)
                if now == last { return }
                last = now
            }
        }

        /// Every state of a state folder, one after another, for about three seconds,
        /// with unrelated files written beside it as other programs do (`less`
        /// writing its history through a temporary file). Returns how many changes
        /// the watched folders saw.
        static func churn(parent: String, folders: [String]) -> Int {
            let fm = FileManager.default
            var changes = 0
            func step(_ change: () throws -> Void) {
                try? change()
                changes += 1
                Thread.sleep(forTimeInterval: 0.03)
            }
            let end = Date().addingTimeInterval(3)
            while Date() < end {
                step { try "history".write(toFile: parent + "/lesshst.tmp", atomically: false, encoding: .utf8) }
                step { _ = rename(parent + "/lesshst.tmp", parent + "/lesshst") }
                for folder in folders {
                    // Appearing, with an unrelated file in it.
                    step { try fm.createDirectory(atPath: folder, withIntermediateDirectories: false) }
                    step { try "x".write(toFile: folder + "/notes", atomically: false, encoding: .utf8) }
                    // Replaced by another folder.
                    step { try fm.createDirectory(atPath: folder + ".new", withIntermediateDirectories: false) }
                    step { try fm.removeItem(atPath: folder + "/notes") }
                    step { _ = rename(folder + ".new", folder) }
                    // Removed.
                    step { try fm.removeItem(atPath: folder) }
                    // A file where the folder should be, then gone again.
                    step { try "not a folder".write(toFile: folder, atomically: false, encoding: .utf8) }
                    step { try fm.removeItem(atPath: folder) }
                }
            }
            return changes
        }

        @Test("no CPU, no wake-ups beyond one per change and none once they stop, beside a missing, appearing, replaced, removed or file-shaped state folder, or one on a read-only file system")
        func idleWhateverTheFolderDoes() throws {
            let parent = Scratch.directory("idle-state")
            defer { try? FileManager.default.removeItem(atPath: parent) }
            let idle = Scratch.script(#"countdown.start{ seconds = 3600, every = 3600 }"#)
            let persisting = Scratch.script(#"countdown.start{ id = "idle", seconds = 3600, every = 3600, persist = true }"#)
            let processes = [
                ("run keeping nothing", try LiveProcess(["--state-dir", parent + "/run", idle])),
                ("watch", try LiveProcess(["watch", "nothing", "--state-dir", parent + "/watch"])),
                // The run creates its store itself: its folder then exists, beside the churn.
                ("run creating its store", try LiveProcess(["--state-dir", parent + "/created", persisting])),
                // Nothing can be created under /proc, not even by root.
                ("run on a read-only file system", try LiveProcess(["--state-dir", "/proc/cdscript-missing/state", idle])),
            ]
            defer { for (_, p) in processes { p.signal(SIGKILL); p.wait() } }
            for (_, p) in processes { Self.settle(p.pid) }
            let before = processes.map { (Self.cpuSeconds($0.1.pid), Self.wakeups($0.1.pid)) }
            let changes = Self.churn(parent: parent, folders: [parent + "/run", parent + "/watch"])
            Thread.sleep(forTimeInterval: 0.2)
            for ((name, p), (cpu, woken)) in zip(processes, before) {
                #expect(p.process.isRunning, "\(name): \(p.stderr)")
                let used = Self.cpuSeconds(p.pid) - cpu
                let wakes = Self.wakeups(p.pid) - woken
                // A spinning watcher used 2.8 s of CPU in 3 s; a wake-up costs tens of
                // microseconds, so the changes cost a few milliseconds. 0.15 s leaves
                // room for a debug build and a busy machine, and none for a spin.
                #expect(used < 0.15, "\(name) used \(used) s of CPU during \(changes) changes")
                // At most one wake-up per change the process's watch can see (every
                // one made in `parent` or its folder); none for the folders it does not watch.
                #expect(wakes <= changes + 5, "\(name) woke \(wakes) times during \(changes) changes")
                if name == "run creating its store" || name == "run on a read-only file system" {
                    #expect(wakes <= 5, "\(name) woke \(wakes) times for changes it does not watch")
                }
            }
            // Once the changes stop, nothing at all: no timer was left armed.
            let quiet = processes.map { Self.wakeups($0.1.pid) }
            Thread.sleep(forTimeInterval: 1.5)
            for ((name, p), woken) in zip(processes, quiet) {
                #expect(Self.wakeups(p.pid) - woken == 0, "\(name) woke while nothing changed")
            }
            #expect(FileManager.default.fileExists(atPath: parent + "/created/state.sqlite"))
        }
    }
}
