#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TerminalView
import Testing
@testable import cdscript
import StoreViews

/// One run's ending and the exit it must give, by name.
struct RunEndingCase: CustomTestStringConvertible, Sendable {
    let name: String
    let ending: RunEnding
    let exit: RunExit
    let status: Int32
    var testDescription: String { name }
}

private let closedPipe = StandardOutput.Failure.closedPipe
private let fullDisk = StandardOutput.Failure.error(errno: ENOSPC, what: "the listing")

/// Every way a run can end, alone and where two meet; the status is what README's
/// table promises.
private let cases: [RunEndingCase] = [
    RunEndingCase(name: "nothing went wrong: 0", ending: RunEnding(), exit: .finished, status: 0),
    RunEndingCase(name: "a hook raised: 1", ending: RunEnding(hookErrors: true), exit: .hookErrors, status: 1),
    RunEndingCase(name: "the main chunk raised: 2", ending: RunEnding(scriptFailure: .runtime), exit: .scriptFailed(.runtime), status: 2),
    RunEndingCase(name: "not valid Lua: 3", ending: RunEnding(scriptFailure: .syntax), exit: .scriptFailed(.syntax), status: 3),
    RunEndingCase(name: "a missing script: 4", ending: RunEnding(scriptFailure: .unreadable), exit: .scriptFailed(.unreadable), status: 4),
    RunEndingCase(name: "a store that could not be opened or written: 6", ending: RunEnding(storeFailed: true), exit: .storeFailed, status: 6),
    RunEndingCase(name: "changes that could not reach the store: 6", ending: RunEnding(changesLost: true), exit: .changesLost, status: 6),
    RunEndingCase(name: "q with countdowns running: 8", ending: RunEnding(quitEarly: true), exit: .quitEarly, status: 8),
    RunEndingCase(name: "Ctrl-C on the view: 130", ending: RunEnding(quitWithCtrlC: true), exit: .quitWithCtrlC, status: 130),
    RunEndingCase(name: "SIGINT: 130", ending: RunEnding(signal: SIGINT), exit: .signal(SIGINT), status: 130),
    RunEndingCase(name: "SIGTERM: 143", ending: RunEnding(signal: SIGTERM), exit: .signal(SIGTERM), status: 143),
    RunEndingCase(name: "SIGHUP: 129", ending: RunEnding(signal: SIGHUP), exit: .signal(SIGHUP), status: 129),
    RunEndingCase(name: "another signal: 128 + it", ending: RunEnding(signal: SIGQUIT), exit: .signal(SIGQUIT), status: 128 + SIGQUIT),
    RunEndingCase(name: "a reader that went away (SIGPIPE): 141", ending: RunEnding(signal: SIGPIPE, output: closedPipe), exit: .outputFailed(closedPipe), status: 141),
    RunEndingCase(name: "SIGPIPE with nothing recorded: 141", ending: RunEnding(signal: SIGPIPE), exit: .outputFailed(closedPipe), status: 141),
    RunEndingCase(name: "a full disk (SIGPIPE): 74", ending: RunEnding(signal: SIGPIPE, output: fullDisk), exit: .outputFailed(fullDisk), status: 74),
    RunEndingCase(name: "io.write into a full disk at the end: 74", ending: RunEnding(output: fullDisk), exit: .outputFailed(fullDisk), status: 74),
    RunEndingCase(name: "--exec of a missing program: 127", ending: RunEnding(spawnFailure: ENOENT), exit: .commandNotRun(errno: ENOENT), status: 127),
    RunEndingCase(name: "--exec of a file that cannot run: 126", ending: RunEnding(spawnFailure: EACCES), exit: .commandNotRun(errno: EACCES), status: 126),
    RunEndingCase(name: "an end action that exited 3, here or in the process that claimed the end: 3",
                  ending: RunEnding(endActionStatus: 3), exit: .endActionFailed(status: 3), status: 3),
    RunEndingCase(name: "an end action ended by SIGKILL: 137", ending: RunEnding(endActionStatus: 137), exit: .endActionFailed(status: 137), status: 137),
    RunEndingCase(name: "an end action's status that is 0 modulo 256 still fails the run: 1",
                  ending: RunEnding(endActionStatus: 256), exit: .endActionFailed(status: 256), status: 1),
    RunEndingCase(name: "coverage reports that could not be written: 74", ending: RunEnding(coverageFailure: .outputError), exit: .coverageNotWritten(.outputError), status: 74),
    RunEndingCase(name: "bad .luacov patterns at the end: 4", ending: RunEnding(coverageFailure: .unreadableScript), exit: .coverageNotWritten(.unreadableScript), status: 4),
    // Where two meet: the first of the order RunExit documents decides.
    RunEndingCase(name: "coverage not written outranks a script error",
          ending: RunEnding(coverageFailure: .outputError, scriptFailure: .runtime, changesLost: true), exit: .coverageNotWritten(.outputError), status: 74),
    RunEndingCase(name: "a main chunk that failed outranks changes lost",
          ending: RunEnding(scriptFailure: .syntax, changesLost: true), exit: .scriptFailed(.syntax), status: 3),
    RunEndingCase(name: "a signal while the main chunk ran outranks its failure",
          ending: RunEnding(scriptFailure: .runtime, signal: SIGINT), exit: .signal(SIGINT), status: 130),
    RunEndingCase(name: "changes lost outrank Ctrl-C: 6, so that a script around it can tell",
          ending: RunEnding(signal: SIGINT, changesLost: true), exit: .changesLost, status: 6),
    RunEndingCase(name: "a signal outranks output that failed", ending: RunEnding(signal: SIGTERM, output: fullDisk), exit: .signal(SIGTERM), status: 143),
    RunEndingCase(name: "output that failed outranks q", ending: RunEnding(output: closedPipe, quitEarly: true), exit: .outputFailed(closedPipe), status: 141),
    RunEndingCase(name: "Ctrl-C on the view outranks q's count", ending: RunEnding(quitWithCtrlC: true, quitEarly: true), exit: .quitWithCtrlC, status: 130),
    RunEndingCase(name: "q outranks --exec that failed", ending: RunEnding(quitEarly: true, spawnFailure: ENOENT), exit: .quitEarly, status: 8),
    RunEndingCase(name: "--exec that failed outranks hook errors", ending: RunEnding(spawnFailure: ENOENT, hookErrors: true), exit: .commandNotRun(errno: ENOENT), status: 127),
    RunEndingCase(name: "--exec that could not start outranks an end action's status",
          ending: RunEnding(spawnFailure: ENOENT, endActionStatus: 3), exit: .commandNotRun(errno: ENOENT), status: 127),
    RunEndingCase(name: "an end action's status outranks hook errors",
          ending: RunEnding(endActionStatus: 3, hookErrors: true), exit: .endActionFailed(status: 3), status: 3),
    RunEndingCase(name: "hook errors outrank store errors", ending: RunEnding(hookErrors: true, storeFailed: true), exit: .hookErrors, status: 1),
]

@Suite("A run's exit status is one decision over how the run ended")
struct RunExitTests {
    @Test("each ending gives its exit, and the exit its status", arguments: cases)
    func decision(_ example: RunEndingCase) {
        let exit = RunExit(example.ending)
        #expect(exit == example.exit)
        #expect(exit.status == example.status)
    }

    @Test("every status the decision gives is a code of ExitStatus, and a code README's table lists")
    func statusesAreDocumented() throws {
        let documented = try ExitCodeTable.read().codes
        // Another signal, and an end action's own status, are not cdscript's codes.
        for example in cases where example.ending.signal != SIGQUIT && example.ending.endActionStatus == nil {
            #expect(ExitStatus(rawValue: example.status) != nil, "\(example.name)")
            #expect(documented.contains(example.status), "\(example.name): \(example.status) is not in README's table")
        }
    }

    @Test("README's exit-code table lists exactly the codes of ExitStatus")
    func tableMatchesExitStatus() throws {
        let table = try ExitCodeTable.read()
        let codes = Set(ExitStatus.allCases.map(\.rawValue))
        #expect(table.codes == codes, "only in \(table.file): \(table.codes.subtracting(codes).sorted()); only in ExitStatus: \(codes.subtracting(table.codes).sorted())")
    }

    @Test("--help's list of exit codes names exactly the codes of ExitStatus")
    func helpMatchesExitStatus() throws {
        let discussion = CDScript.configuration.discussion
        let list = try #require(discussion.range(of: "Exit codes:")).upperBound
        let listed = Set(discussion[list...].split(whereSeparator: { !$0.isNumber }).compactMap { Int32($0) })
        let codes = Set(ExitStatus.allCases.map(\.rawValue))
        #expect(listed == codes, "only in --help: \(listed.subtracting(codes).sorted()); only in ExitStatus: \(codes.subtracting(listed).sorted())")
    }

    @Test("a run ended by a signal ends as the decision says, for every signal a run handles")
    func signalsFollowTheDecision() {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            #expect(RunExit(RunEnding(signal: signal)).status == 128 + signal)
        }
        #expect(RunExit(RunEnding(signal: SIGPIPE)).status == ExitStatus.closedPipe.rawValue)
    }
}

/// The exit-code table users read: the Markdown table under an "Exit codes"
/// heading, in README.md or, once the reference moved, a page of docs/.
struct ExitCodeTable {
    let file: String
    let codes: Set<Int32>

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read() throws -> ExitCodeTable {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        let files = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            if let codes = codes(in: text) { return ExitCodeTable(file: file, codes: codes) }
        }
        throw TableMissing()
    }

    struct TableMissing: Error, CustomStringConvertible {
        var description: String { "no table under an \"Exit codes\" heading in README.md or docs/*.md" }
    }

    /// The first column of the table after the heading: "0", "126, 127", ...
    static func codes(in text: String) -> Set<Int32>? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let heading = lines.firstIndex(where: { $0.hasPrefix("#") && $0.lowercased().hasSuffix(" exit codes") }) else { return nil }
        var codes: Set<Int32> = []
        var inTable = false
        for line in lines[(heading + 1)...] {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("|") else {
                if inTable { break }
                continue
            }
            inTable = true
            let first = line.split(separator: "|", omittingEmptySubsequences: false)[1]
            for part in first.split(separator: ",") {
                if let code = Int32(part.trimmingCharacters(in: .whitespaces)) { codes.insert(code) }
            }
        }
        return codes.isEmpty ? nil : codes
    }
}
