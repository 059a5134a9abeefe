import Foundation
import Testing
@testable import ScriptTesting

/// The line scanner (line_scanner.lua) decides which lines count in coverage
/// reports as luacov 0.17's reporter does. It was written from what that
/// reporter reports, never from its code; these tests hold it to the facts
/// scripts/luacov-facts recorded from a real luacov kept outside this tree:
/// Debian's Lua modules, Lua 5.4.4's own testes, hostile cases written here,
/// and 20,566 single lines, each judged alone.
@Suite("line scanner: the lines luacov's reporter counts, by recorded facts")
struct LineScannerTests {
    static let facts = Fixture.folder.appendingPathComponent("luacov-facts")

    /// One file's recorded verdict: the lines that count ("N?" only when run).
    struct Record {
        var corpus: String
        var path: String
        var sha256: String
        var lines: String
    }

    static let records: [Record] = {
        let text = (try? String(contentsOf: facts.appendingPathComponent("files.tsv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { row in
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Record(corpus: fields[0], path: fields[1], sha256: fields[2], lines: fields.count > 3 ? fields[3] : "")
        }
    }()

    static func sha256(_ path: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init)
    }

    /// Compares every record of `corpus` whose file under `root` is the one
    /// recorded (same SHA-256); returns how many were compared and how many
    /// were not there as recorded.
    static func compare(_ corpus: String, under root: String) -> (compared: Int, absent: [String]) {
        var compared = 0
        var absent: [String] = []
        for record in records where record.corpus == corpus {
            let path = root + "/" + record.path
            guard sha256(path) == record.sha256 else {
                absent.append(record.path)
                continue
            }
            let ours = (CoverageReport.scanned(path) ?? "<unreadable>").split(separator: "\n").joined(separator: " ")
            #expect(ours == record.lines, "\(corpus) \(record.path): luacov counts \(record.lines)\nthe scanner gives \(ours)")
            compared += 1
        }
        return (compared, absent)
    }

    static let debianRoot = "/usr/share/lua/5.4"
    static var debianInstalled: Bool { FileManager.default.fileExists(atPath: debianRoot + "/busted/block.lua") }
    static var lua54Testes: String? { ProcessInfo.processInfo.environment["CDSCRIPT_LUA_TESTES"] }

    @Test("the facts are there: Debian's modules, Lua's testes and the hostile cases, each file recorded once")
    func factsAreRecorded() {
        let corpora = Dictionary(grouping: Self.records, by: \.corpus).mapValues(\.count)
        #expect(corpora["debian", default: 0] >= 100, "\(corpora)")
        #expect(corpora["lua-testes", default: 0] >= 30, "\(corpora)")
        #expect(corpora["hostile", default: 0] >= 10, "\(corpora)")
        let names = Self.records.map { $0.corpus + "/" + $0.path }
        #expect(Set(names).count == names.count)
    }

    @Test("agrees with luacov on every hostile case: long brackets, continued strings, headers, CR LF, odd bytes, directives")
    func hostileCases() {
        let result = Self.compare("hostile", under: Self.facts.appendingPathComponent("hostile").path)
        #expect(result.absent.isEmpty, "hostile cases changed since they were recorded (run scripts/luacov-facts): \(result.absent)")
        #expect(result.compared >= 10)
    }

    @Test("agrees with luacov on Debian's Lua modules (busted, luassert, penlight, ...)",
          .enabled(if: debianInstalled, "Debian's lua-busted is not installed (scripts/setup installs it)"))
    func debianModules() {
        let result = Self.compare("debian", under: Self.debianRoot)
        let recorded = Self.records.filter { $0.corpus == "debian" }.count
        // A module Debian updated since the facts were recorded is left out,
        // not failed; most must still be the recorded ones.
        #expect(result.compared * 10 >= recorded * 9, "only \(result.compared) of \(recorded) modules are as recorded (run scripts/luacov-facts): \(result.absent)")
    }

    @Test("agrees with luacov on Lua 5.4.4's testes",
          .enabled(if: lua54Testes != nil, "CDSCRIPT_LUA_TESTES does not name a copy of Lua 5.4.4's testes (they are not part of this tree)"))
    func luaTestes() throws {
        let root = try #require(Self.lua54Testes)
        let result = Self.compare("lua-testes", under: root)
        #expect(result.absent.isEmpty, "not as recorded: \(result.absent)")
    }

    @Test("agrees with luacov on 20,566 lines, each judged alone")
    func oneLiners() throws {
        let cases = try String(contentsOf: Self.facts.appendingPathComponent("one-liners.txt"), encoding: .utf8)
        let expected = try String(contentsOf: Self.facts.appendingPathComponent("one-liners.facts"), encoding: .utf8)
            .split(separator: "\n").joined()
        let lines = cases.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let ours = try CoverageReport.judgedAlone(cases)
        #expect(ours.count == lines.count && expected.count == lines.count)
        let differing = zip(lines, zip(expected, ours)).filter { $1.0 != $1.1 }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(20).map { "\($0.0) luacov \($0.1.0) ours \($0.1.1)" })")
    }

    @Test("a line counts as luacov counts it, whatever ran: a `?` line only when it ran")
    func hitsDecideMaybeLines() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("m.lua")
        try "local t = {\n  a = 1,\n}\nlocal x\nreturn t\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(CoverageReport.countedLines(file.path, hits: [:]) == [1, 5])
        #expect(CoverageReport.countedLines(file.path, hits: [2: 1, 3: 1, 4: 1]) == [1, 2, 3, 5])
    }
}
