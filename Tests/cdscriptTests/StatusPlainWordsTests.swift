import ArgumentParser
import Testing
@testable import cdscript
@testable import CommandLineWords
import StoreViews

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

    /// The calls tried: every piece alone after `status`, then 40 calls of one to
    /// five pieces, each the next in steps of 7 through the list (7 and its length
    /// share no factor, so every piece comes in every position; the same each run).
    static var calls: [[String]] {
        var calls = pieces.map { ["status"] + $0 }
        var next = 0
        for call in 0..<40 {
            calls.append(["status"] + (0...(call % 5)).flatMap { _ in
                next = (next + 7) % pieces.count
                return pieces[next]
            })
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
