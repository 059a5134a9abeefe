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
        // Options before the command's name, as a bar's configuration may put them.
        for (index, piece) in pieces.enumerated() where piece.first?.hasPrefix("-") == true {
            calls.append(piece + ["status"] + pieces[(index * 3) % pieces.count])
        }
        return calls + [["status"], ["list"], ["--state-dir", "/x", "status"], ["--state-dir", "/x", "status", "tea"],
                        ["--store", "redis://127.0.0.1:1", "--for", "tmux", "status", "tea", "--format", "{id}"],
                        ["--state-dir", "/x", "tea", "status"], ["--state-dir", "/x", "list"], ["--version", "status"]]
    }

    @Test("every call the plain reader accepts is the same request to ArgumentParser")
    func sameRequest() {
        var accepted = 0
        for call in Self.calls {
            guard let plain = StatusRequest.plainWords(call) else { continue }
            accepted += 1
            // As CDScript.main hands words to ArgumentParser: options before a command's name after it.
            let parsed = try? CDScript.parseAsRoot(EmptyPathOptions.split(LeadingOptions.reordered(call))) as? StatusCommand
            #expect(parsed?.request == plain, "\(call)")
        }
        // The plain path is the one a bar takes: most simple calls must go by it. (Each
        // parse in a debug build costs about 0.1 s of ArgumentParser's validation: few calls.)
        #expect(accepted >= 25, "only \(accepted) of \(Self.calls.count) calls were read plainly")
    }

    @Test("options before status are read plainly, as after it")
    func leadingOptions() throws {
        let leading = try #require(StatusRequest.plainWords(["--state-dir", "/x", "--for", "tmux", "status", "tea"]))
        let trailing = try #require(StatusRequest.plainWords(["status", "tea", "--state-dir", "/x", "--for", "tmux"]))
        #expect(leading == trailing)
        #expect(leading.stateDir == "/x" && leading.ids == ["tea"] && leading.destination == .tmux)
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
                     ["status", "--json"], ["status", "--state-dir"], ["--state-dir", "/x", "tea", "status"],
                     ["--json", "status"], ["--state-dir", "/x", "list"], ["--version", "status"], ["--state-dir", "/x"]] {
            #expect(StatusRequest.plainWords(call) == nil, "\(call)")
        }
    }
}
