import Foundation
import Testing

/// Issue 39, "The stopwatch keeps its laps": printed on every exit path, kept
/// when the memory limit is met, summed up at the end; `--quit-after` as in `timer`.
@Suite("cdscript stopwatch keeps its laps")
struct StopwatchLapsTests {
    static func keys(_ lines: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-laps-\(UUID().uuidString)")
        try lines.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func laps(_ result: BinaryRunner.Result) -> [String] {
        result.lines.filter { $0.range(of: #"^lap \d+  \d+:\d\d\.\d  \d+:\d\d\.\d$"#, options: .regularExpression) != nil }
    }

    @Test("the laps and the total are printed after Ctrl-C, SIGTERM and SIGHUP, with their exit codes", arguments: [
        (SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129)),
    ])
    func everyExitPath(signal: Int32, status: Int32) throws {
        let result = try BinaryRunner.run(["stopwatch"], signal: signal, stdinPath: try Self.keys("l\nl\nl\n"),
                                          signalWhen: { $0.components(separatedBy: "lap: lap ").count > 3 })
        #expect(result.status == status, "\(result.stderr)")
        #expect(Self.laps(result).count == 3, "\(result.stdout)")
        #expect(result.lines.contains { $0.hasPrefix("laps 3  fastest ") }, "\(result.stdout)")
        #expect(result.lines.last?.hasPrefix("total  0:0") == true, "\(result.stdout)")
    }

    @Test("q ends with a summary: count, fastest, slowest, mean; once, not again at exit")
    func summary() throws {
        let result = try BinaryRunner.run(["stopwatch"], stdinPath: try Self.keys("l\nl\nq\n"))
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(result.lines.first { $0.hasPrefix("laps ") }, "\(result.stdout)")
        #expect(summary.range(of: #"^laps 2  fastest 0:00\.\d  slowest 0:00\.\d  mean 0:00\.\d$"#, options: .regularExpression) != nil, "\(summary)")
        #expect(result.lines.filter { $0.hasPrefix("total  ") }.count == 1, "\(result.stdout)")
    }

    @Test("--quit-after ends it as q does")
    func quitAfter() throws {
        let result = try BinaryRunner.run(["stopwatch", "--quit-after", "2s", "--speed", "10"], stdinPath: try Self.keys("l\n"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.laps(result).count == 1, "\(result.stdout)")
        #expect(result.lines.last?.hasPrefix("total  0:02.") == true || result.lines.last?.hasPrefix("total  0:01.9") == true, "\(result.stdout)")
    }

    @Test("--laps-file gets each lap as it is taken, a CSV line after a header: kept when the run is killed (SIGKILL), added to by the next run, both ways")
    func lapsFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-lapsfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("laps.csv")
        let ejected = dir.appendingPathComponent("mywatch.lua")
        try BinaryRunner.run(["stopwatch", "--eject"]).stdout.write(to: ejected, atomically: true, encoding: .utf8)
        // Killed with SIGKILL: nothing of its own runs at the end, the file holds
        // the laps all the same.
        let killed = try BinaryRunner.run(["stopwatch", "--laps-file", file.path], signal: SIGKILL,
                                          stdinPath: try Self.keys("l\nl\n"), signalWhen: { $0.components(separatedBy: "lap: lap ").count > 2 })
        #expect(killed.status == SIGKILL, "killed by the signal: \(killed.stderr)")
        let second = try BinaryRunner.run([ejected.path, "--laps-file", file.path], stdinPath: try Self.keys("l\nq\n"))
        #expect(second.status == 0, "\(second.stderr)")
        let rows = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(rows.count == 4 && rows[0] == "lap,lap_seconds,total_seconds", "\(rows)")
        let pattern = #"^\d+,\d+\.\d,\d+\.\d$"#
        #expect(rows.dropFirst().allSatisfy { $0.range(of: pattern, options: .regularExpression) != nil }, "\(rows)")
        #expect(rows.dropFirst().map { $0.prefix(2) } == ["1,", "2,", "1,"], "\(rows)")
        let empty = try BinaryRunner.run(["stopwatch", "--laps-file", ""])
        #expect(empty.status == 64 && empty.stderr.contains("--laps-file must name a file"), "\(empty.stderr)")
    }

    @Test("meeting --memory-limit says so, keeps the laps so far, and q still prints them")
    func memoryLimit() throws {
        // More laps than fit in 4 MiB, then q.
        let result = try BinaryRunner.run(["stopwatch", "--memory-limit", "4M"], timeout: 120,
                                          stdinPath: try Self.keys(String(repeating: "l\n", count: 300_000) + "q\n"))
        #expect(result.status == 0, "\(result.stderr.prefix(2000))")
        let note = try #require(result.lines.last { $0.contains("memory limit reached") }, "\(result.stdout.suffix(2000))")
        let kept = try #require(note.range(of: #"\d+(?= laps kept)"#, options: .regularExpression).map { Int(note[$0]) ?? 0 })
        #expect(kept > 1000, "\(note)")
        #expect(Self.laps(result).count == kept, "every lap kept is printed")
        #expect(result.lines.contains { $0.hasPrefix("laps \(kept)  fastest ") })
        #expect(result.lines.last?.hasPrefix("total  ") == true)
    }
}
