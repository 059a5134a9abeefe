import Foundation
import Testing

/// `--coverage` writes its reports through temporary files renamed over them; a
/// run killed with kill -9 between the two leaves its temporary behind, and the
/// next run's write of the same report removes it, unless its writer still runs.
@Suite("run --coverage: temporaries a killed run left are removed, a live run's are kept")
struct CoverageTemporariesTests {
    /// `bootid:pid:starttime`, as cdscript names a process (ProcessIdentity), for `pid`.
    static func identity(of pid: Int32) throws -> String {
        let boot = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        return "\(boot):\(pid):\(fields[19])"
    }

    /// The name of a process that has ended: one started, named while it waits on
    /// its standard input, then let go and waited for. (A process that ends by
    /// itself, such as /bin/true, can be gone before its /proc entry is read.)
    static func endedProcess() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cat")
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { process.waitUntilExit() }
        let live: String
        do {
            live = try identity(of: process.processIdentifier)
        } catch {
            try? input.fileHandleForWriting.close()
            throw error
        }
        try input.fileHandleForWriting.close()
        return live
    }

    @Test("a run's coverage write removes the .lcov.info.tmp-* and .luacov.stats.out.tmp-* files of writers that are gone, and keeps a live writer's and unnamed ones")
    func staleTemporariesRemoved() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-covtmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "countdown.start{ seconds = 0.01 }\n".write(to: dir.appendingPathComponent("s.lua"), atomically: true, encoding: .utf8)
        let ended = try Self.endedProcess()
        let living = try Self.identity(of: getpid())
        var stale: [String] = [], kept: [String] = []
        for base in ["lcov.info", "luacov.stats.out"] {
            stale.append(".\(base).tmp-\(ended)-1x2y3z")
            // A writer from before a reboot: another boot id, the same pid.
            stale.append(".\(base).tmp-00000000-0000-0000-0000-000000000000:\(getpid()):1-4w5v")
            kept.append(".\(base).tmp-\(living)-6u7t")
            // A name that names no writer (cdscript wrote such names before): nothing says it is stale.
            kept.append(".\(base).tmp-8s9r")
        }
        for name in stale + kept {
            try "partial".write(to: dir.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        let run = try BinaryRunner.run(["run", "--coverage", "s.lua"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        #expect(left.contains("lcov.info") && left.contains("luacov.stats.out"), "\(left)")
        for name in stale { #expect(!left.contains(name), "a dead writer's temporary is removed: \(name)") }
        for name in kept { #expect(left.contains(name), "kept: \(name)") }
        #expect(left.filter { $0.contains(".tmp-") }.count == kept.count, "the run left no temporary of its own: \(left)")
    }
}
