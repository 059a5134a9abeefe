import Foundation
import RedisTestServer
import Testing

/// A Redis server restarted without its data while an end's action runs (issue
/// 48): the fencing token must still grow, or it defends nothing.
enum EndClaimRestart {
    /// Stops the server, removes its data (as a server without persistence
    /// loses it) and starts it again on the same port.
    static func restartEmpty(_ server: RedisServer) throws {
        server.stop()
        for name in try FileManager.default.contentsOfDirectory(atPath: server.directory) where name != "log" {
            try FileManager.default.removeItem(atPath: server.directory + "/" + name)
        }
        try server.start()
    }

    struct Outcome {
        var runsPerEnd: [Int]
        /// Every run's token is larger than every earlier run's.
        var tokensGrow: Bool
        var claimantStderr: [String]
        var detail: String
    }

    /// Three followers (1 s lease, 3 s action) through `rounds` ends; the server
    /// restarts empty as soon as each end's action starts.
    static func run(_ server: RedisServer, rounds: Int) throws -> Outcome {
        let store = ["--store", server.url]
        let log = Scratch.directory("end-restart") + "/actions.log"
        var followers: [String: LiveProcess] = [:]
        for tag in ["f1", "f2", "f3"] {
            followers[tag] = try LiveProcess(store + [EndActionScripts.follower(lease: 1, busy: 3), log, tag])
        }
        defer { for f in followers.values { f.signal(SIGKILL); f.wait() } }
        for f in followers.values { #expect(f.waitForLine { $0 == "ready" } != nil, "\(f.stderr)") }
        let driver = try LiveProcess(store + [EndActionScripts.driver(rounds: rounds, gap: 6)])
        defer { driver.signal(SIGKILL) }
        var claimants: [String] = []
        for round in 1...rounds {
            let found = EndActionScripts.waitFor(log, timeout: 30) { entries in
                EndActionScripts.groups(entries.filter { $0.what == "start" }).count >= round
            }
            guard let first = EndActionScripts.groups(found.filter { $0.what == "start" }).dropFirst(round - 1).first?.first else { break }
            claimants.append(first.tag)
            try restartEmpty(server)
        }
        // The driver reports the countdown the server lost (exit 6) and goes on.
        let status = driver.wait(timeout: Double(rounds) * 12 + 30)
        #expect(status == 0 || status == 6, "\(driver.stderr)")
        // Room for the last action, and any run again after the restart.
        Thread.sleep(forTimeInterval: 5)
        // A process's stderr is whole once it has ended.
        for f in followers.values { f.signal(SIGKILL); f.wait() }
        let starts = EndActionScripts.entries(log).filter { $0.what == "start" }
        let tokens = starts.map(\.token)
        let grow = zip(tokens, tokens.dropFirst()).allSatisfy { $0 < $1 }
        let stderr = claimants.compactMap { followers[$0]?.stderr }
        let detail = "\(starts) | " + followers.map { "\($0.key): \($0.value.stderr)" }.joined(separator: " | ")
        return Outcome(runsPerEnd: EndActionScripts.groups(starts).map(\.count), tokensGrow: grow, claimantStderr: stderr, detail: detail)
    }
}

extension StoreFaults {
    @Suite("A Redis server restarted without its data mid-action", .serialized)
    final class EndClaimRestartTests {
        let server: RedisServer

        init() throws { server = try RedisServer() }

        @Test("a server restarted empty while an end's action runs: every later run holds a larger token, at most one more run, and the claimant is told the server lost its data")
        func restartMidAction() throws {
            let outcome = try EndClaimRestart.run(server, rounds: 2)
            #expect(outcome.tokensGrow, "tokens must grow across the restart: \(outcome.detail)")
            #expect(outcome.runsPerEnd.count == 2 && outcome.runsPerEnd.allSatisfy { $0 >= 1 && $0 <= 2 }, "\(outcome.runsPerEnd): \(outcome.detail)")
            #expect(outcome.claimantStderr.allSatisfy { $0.contains("lost its data since the claim") }, "\(outcome.claimantStderr)")
        }

        @Test("20 ends, each with a restart mid-action, runs per end printed (CDSCRIPT_CLAIM_BENCH=1, scripts/bench-claims)",
              .enabled(if: EndClaimSkew.benchmarking, "a measurement: set CDSCRIPT_CLAIM_BENCH=1 (scripts/bench-claims)"))
        func distribution() throws {
            let outcome = try EndClaimRestart.run(server, rounds: 20)
            let counts = Dictionary(outcome.runsPerEnd.map { ($0, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }
            print("claim-bench Redis restart: runs per end {\(counts.map { "\($0.key): \($0.value)" }.joined(separator: ", "))}; tokens grow: \(outcome.tokensGrow); ends \(outcome.runsPerEnd.count)")
        }
    }
}
