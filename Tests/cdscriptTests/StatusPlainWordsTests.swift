import ArgumentParser
import Testing
@testable import cdscript

/// `status` reads its plain calls without ArgumentParser (StatusRequest+PlainWords.swift),
/// so these tests hold the two readings together: every call the plain reader
/// accepts, ArgumentParser reads as the same request. (This check ran inside every
/// debug `cdscript status`, where ArgumentParser's debug-only validation of the whole
/// command tree tripled the cost of each call the tests made.)
@Suite("status's plain words and ArgumentParser read a call alike")
struct StatusPlainWordsTests {
    /// Words a call may be made of: options with good and bad values, ids, and words
    /// the plain reader must leave to ArgumentParser.
    static let pieces: [[String]] = [
        ["--state-dir", "/tmp/x"], ["--store", "redis://127.0.0.1:1"], ["--store", "sqlite:///tmp/s.db"],
        ["--redis-cacert", "/ca.pem"], ["--redis-cacert-dir", "/cas"], ["--redis-cert", "/c.pem"], ["--redis-key", "/k.pem"],
        ["--redis-sni", "cache.example"], ["--format", "{id} {left}"], ["--format", "{nope}"], ["--format", "{{x}} {title}"],
        ["--format", ""], ["--separator", " | "], ["--separator", ""], ["--for", "tmux"], ["--for", "text"], ["--for", "html"],
        ["tea"], ["pomo"], ["名前"], ["a b"], [""], ["--json"], ["--help"], ["--"], ["-x"], ["--format=x"], ["--state-dir"],
        ["--redis-wait", "1"],
    ]

    /// The calls tried: every piece alone and after `status`, then random calls of up
    /// to five pieces (a fixed seed, so a failure repeats).
    static var calls: [[String]] {
        var calls = pieces.map { ["status"] + $0 }
        var generator = SplitMix(seed: 0x5eed_5747)
        for _ in 0..<40 {
            let count = Int(generator.next() % 5) + 1
            calls.append(["status"] + (0..<count).flatMap { _ in pieces[Int(generator.next() % UInt64(pieces.count))] })
        }
        return calls + [["status"], ["list"], ["--state-dir", "/x", "status"]]
    }

    @Test("every call the plain reader accepts is the same request to ArgumentParser")
    func sameRequest() {
        var accepted = 0
        for call in Self.calls {
            guard let plain = StatusRequest.plainWords(call) else { continue }
            accepted += 1
            let parsed = try? CDScript.parseAsRoot(call) as? StatusCommand
            #expect(parsed?.request == plain, "\(call)")
        }
        // The plain path is the one a bar takes: most simple calls must go by it. (Each
        // parse in a debug build costs about 0.1 s of ArgumentParser's validation: few calls.)
        #expect(accepted >= 25, "only \(accepted) of \(Self.calls.count) calls were read plainly")
    }

    @Test("the defaults are ArgumentParser's: a bare status and status with ids")
    func defaults() throws {
        for call in [["status"], ["status", "tea", "pomo"]] {
            let plain = try #require(StatusRequest.plainWords(call))
            let parsed = try #require(try CDScript.parseAsRoot(call) as? StatusCommand)
            #expect(parsed.request == plain)
        }
    }

    @Test("what it leaves alone: options with =, --, --help, a repeated or unknown option, a bad format or reader")
    func leftToArgumentParser() {
        for call in [["status", "--format=x"], ["status", "--"], ["status", "--help"], ["status", "--for", "html"],
                     ["status", "--store", "a", "--store", "b"], ["status", "--format", "{nope}"], ["status", "-x"],
                     ["status", "--json"], ["status", "--state-dir"], ["--state-dir", "/x", "status"]] {
            #expect(StatusRequest.plainWords(call) == nil, "\(call)")
        }
    }
}

/// A small seeded generator (SplitMix64), so the random calls are the same each run.
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
