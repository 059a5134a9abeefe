import Foundation
import RedisTestServer
import Testing

extension StoreFaults {
    /// Claim keys written by something else (issue 48, "Damaged claim keys
    /// neither hang nor hide an end"): a follower names the key and what is wrong,
    /// ends as the countdown ends and exits 6; the action does not run.
    @Suite("A damaged end claim key neither hangs a follower nor hides the end", .serialized)
    final class DamagedClaimKeyTests {
        let server: RedisServer

        init() throws { server = try RedisServer() }

        @Test("two `timer 2 --id --exec` followers over a damaged claim key both end with the countdown, exit 6 and name the key and its fault; the command never runs", arguments: [
            ("token-text", ["SET", "cdscript:end-token:ID", "abc"], "value abc: expected a whole number below 2^53"),
            ("token-overflow", ["SET", "cdscript:end-token:ID", "99999999999999999999"], "expected a whole number below 2^53"),
            ("end-type", ["SET", "cdscript:end:ID", "x"], "is a string, expected a hash"),
            ("end-huge", ["HSET", "cdscript:end:ID", "end", "1e400", "changed", "1", "done", "0"], "field end = 1e400: expected an integer"),
            ("done-seven", ["HSET", "cdscript:end:ID", "end", "1", "changed", "1", "done", "7"], "field done = 7: expected 0 or 1"),
        ])
        func followersEnd(id: String, command: [String], problem: String) throws {
            let key = command[1].replacingOccurrences(of: "ID", with: id)
            try server.cli([command[0], key] + command.dropFirst(2))
            let log = Scratch.directory("damaged-claim") + "/ran"
            let exec = ["--exec", "sh", "-c", "echo ran >> '\(log)'"]
            let timers = try (1...2).map { _ in try LiveProcess(["timer", "2", "--id", id, "--store", server.url] + exec) }
            let started = Date()
            for t in timers {
                // Killed at 15 s: a follower that waits on the claim forever fails here.
                #expect(t.wait(timeout: 15) == 6, "\(t.stderr)")
                #expect(t.stderr.contains(key) && t.stderr.contains(problem), "\(t.stderr)")
            }
            #expect(Date().timeIntervalSince(started) < 10, "the followers ended with the countdown")
            #expect(!FileManager.default.fileExists(atPath: log), "the action ran over a damaged claim")
        }

        @Test("cdscript check names every bad field of a claim hash (end, changed and done 7 together) and a bad token counter")
        func checkNamesEveryField() throws {
            try server.cli("HSET", "cdscript:end:c", "end", "1e400", "changed", "soon", "done", "7")
            try server.cli("SET", "cdscript:end-token:c", "99999999999999999999")
            let run = try LiveProcess.run(["check", "--store", server.url])
            let text = run.lines.joined(separator: "\n") + run.stderr
            for expected in ["field end = 1e400", "field changed = soon", "field done = 7", "cdscript:end-token:c"] {
                #expect(text.contains(expected), "\(text)")
            }
        }
    }
}
