import Foundation
import RedisTestServer
import Testing

/// Followers of one countdown whose machines' wall clocks are off (issue 48,
/// "An end is one end, whatever a machine's clock says").
///
/// A skewed follower runs under Debian's `faketime -f OFFSET` with
/// FAKETIME_DONT_FAKE_MONOTONIC=1: a machine whose wall clock is off has a boot
/// clock that runs true (CLOCK_BOOTTIME counts from its boot; nobody sets it),
/// so only CLOCK_REALTIME is moved. Without that variable libfaketime moves the
/// boot clock too (to the faked wall time), which no real machine does.
enum EndClaimSkew {
    static let offsets = ["-60s", "-2s", "+0.4s", "+2s", "+60s"]

    /// A follower whose wall clock is `offset` off.
    static func skewed(_ offset: String, _ arguments: [String]) throws -> LiveProcess {
        try LiveProcess(arguments, environment: ["FAKETIME_DONT_FAKE_MONOTONIC": "1", "DONT_FAKE_MONOTONIC": "1"],
                        launcher: ["/usr/bin/faketime", "-f", offset])
    }

    /// Kills `process` and its children: `faketime` runs cdscript as a child
    /// and waits for it, so killing the wrapper alone would leave cdscript
    /// running with the test's pipes open (and the test waiting on them).
    static func kill(_ process: LiveProcess) {
        let pid = process.pid
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { Foundation.kill(child, SIGKILL) }
        process.signal(SIGKILL)
        process.wait()
    }

    /// The follower of EndActionScripts, with an action that also logs the boot
    /// clock (/proc/uptime, which faketime leaves alone): runs are grouped into
    /// ends by when they really happened, not by any process's wall clock. The
    /// action is pending for `busy` seconds (polled, its lease renewed), so that
    /// a lease judged by a skewed clock has the time to be taken over.
    static func follower(lease: Double, busy: Double = 1) -> String {
        Scratch.script("""
            local path, tag = ...
            local function uptime()
              local f = assert(io.open("/proc/uptime"))
              local up = f:read("n")
              f:close()
              return up
            end
            local function act(e)
              local f = assert(io.open(path, "a"))
              f:write(("start %.2f %d %s\\n"):format(uptime(), e.token, tag))
              f:close()
              local began = uptime()
              return function() return uptime() - began >= \(busy) end
            end
            \(EndActionScripts.followLoop(lease: lease))
            """)
    }

    struct Run {
        var uptime: Double
        var token: Int64
        var tag: String
    }

    static func runs(_ path: String) -> [Run] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count == 4, f[0] == "start", let up = Double(f[1]), let token = Int64(f[2]) else { return nil }
            return Run(uptime: up, token: token, tag: String(f[3]))
        }.sorted { $0.uptime < $1.uptime }
    }

    /// Runs per end: the driver's ends are `period` s apart, so runs closer
    /// than half of it belong to one end.
    static func perEnd(_ runs: [Run], period: Double) -> [[Run]] {
        var groups: [[Run]] = []
        for run in runs {
            if let last = groups.last?.first, run.uptime - last.uptime < period / 2 {
                groups[groups.count - 1].append(run)
            } else {
                groups.append([run])
            }
        }
        return groups
    }

    struct Outcome {
        /// Runs of each end, in order.
        var runsPerEnd: [Int]
        /// Followers that said a lease passed (the honest claimant never should).
        var leasePassed: [String]
        var detail: String

        /// {runs: ends}.
        var distribution: [Int: Int] { Dictionary(runsPerEnd.map { ($0, 1) }, uniquingKeysWith: +) }
    }

    /// One honest follower and one per offset of `skews`, `rounds` ends of "x"
    /// (driven from a process with a true clock), then the runs per end.
    static func run(store: [String], skews: [String], rounds: Int, honest: Int = 1) throws -> Outcome {
        let log = Scratch.directory("end-skew") + "/actions.log"
        var followers: [(String, LiveProcess)] = []
        defer { for (_, f) in followers { kill(f) } }
        for i in 0..<honest {
            followers.append(("h\(i)", try LiveProcess(store + [follower(lease: 5), log, "h\(i)"])))
        }
        for offset in skews {
            followers.append((offset, try skewed(offset, store + [follower(lease: 5), log, offset])))
        }
        for (tag, f) in followers { #expect(f.waitForLine(timeout: 30) { $0 == "ready" } != nil, "\(tag): \(f.stderr)") }
        let gap = 1.5
        let driver = try LiveProcess(store + [EndActionScripts.driver(rounds: rounds, gap: gap)])
        defer { driver.signal(SIGKILL) }
        #expect(driver.wait(timeout: Double(rounds) * 5 + 30) == 0, "\(driver.stderr)")
        // Room for a late second run to show up, if there were one.
        Thread.sleep(forTimeInterval: 2)
        // A process's stderr is whole once it has ended.
        for (_, f) in followers { kill(f) }
        let runs = runs(log)
        let ends = perEnd(runs, period: 1 + gap)
        let passed = followers.filter { $0.1.stderr.contains("lease passed") }.map(\.0)
        let detail = runs.map { "\($0.uptime) \($0.token) \($0.tag)" }.joined(separator: ", ")
            + " | " + followers.map { "\($0.0): \($0.1.stderr)" }.joined(separator: " | ")
        var counts = ends.map(\.count)
        // An end nobody ran shows as no group at all.
        counts += Array(repeating: 0, count: max(0, rounds - ends.count))
        return Outcome(runsPerEnd: counts, leasePassed: passed, detail: detail)
    }

    /// The CI check: followers at every offset at once, a few ends.
    static func check(store: [String], rounds: Int = 3) throws {
        let outcome = try run(store: store, skews: offsets, rounds: rounds)
        #expect(outcome.runsPerEnd == Array(repeating: 1, count: rounds), "runs per end: \(outcome.runsPerEnd): \(outcome.detail)")
        #expect(outcome.leasePassed.isEmpty, "told a lease passed: \(outcome.leasePassed): \(outcome.detail)")
    }

    static var benchmarking: Bool { ProcessInfo.processInfo.environment["CDSCRIPT_CLAIM_BENCH"] != nil }

    /// The measured distribution (scripts/bench-claims): 20 ends per offset, one
    /// honest and one skewed follower.
    static func measure(store: [String], label: String) throws {
        for offset in offsets {
            let outcome = try run(store: store, skews: [offset], rounds: 20)
            let shown = outcome.distribution.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            print("claim-bench \(label) skew \(offset): runs per end {\(shown)}; lease passed: \(outcome.leasePassed)")
        }
    }
}

extension StoreFaults {
    @Suite("An end is one end, whatever a follower's wall clock says", .serialized)
    final class EndClaimSkewTests {
        let server: RedisServer

        init() throws { server = try RedisServer() }

        @Test("on SQLite, followers at -60, -2, +0.4, +2 and +60 s of wall-clock skew run each end's action once, and nobody is told its lease passed",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"), "needs Debian's faketime"))
        func sqlite() throws {
            try EndClaimSkew.check(store: ["--state-dir", Scratch.directory("end-skew-sqlite")])
        }

        @Test("on Redis, followers at -60, -2, +0.4, +2 and +60 s of wall-clock skew run each end's action once, and nobody is told its lease passed",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"), "needs Debian's faketime"))
        func redis() throws {
            try EndClaimSkew.check(store: ["--store", server.url])
        }

        @Test("20 ends per skew on both stores, runs per end printed (CDSCRIPT_CLAIM_BENCH=1, scripts/bench-claims)",
              .enabled(if: EndClaimSkew.benchmarking, "a measurement: set CDSCRIPT_CLAIM_BENCH=1 (scripts/bench-claims)"))
        func distribution() throws {
            try EndClaimSkew.measure(store: ["--state-dir", Scratch.directory("end-skew-sqlite-bench")], label: "SQLite")
            try EndClaimSkew.measure(store: ["--store", server.url], label: "Redis")
        }
    }
}
