#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import ScriptRunning

/// A folder of its own for each test, removed after it.
private func withFolder(_ body: (String) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-file-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try body(folder + "/")
}

private func contents(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

@Suite("Coverage reports replace their file whole, never through a symbolic link")
struct ReportFileReplacingTests {
    @Test("the report is written whole, replacing what the file held")
    func replacesWhole() throws {
        try withFolder { folder in
            let path = folder + "lcov.info"
            try "old and longer than the new text\n".write(toFile: path, atomically: false, encoding: .utf8)
            try ReportFile.writeReplacing("new\n", to: path)
            #expect(try contents(path) == "new\n")
        }
    }

    @Test("a symbolic link at the report's name is replaced by the report; its target stays as it was")
    func symlinkIsReplacedNotFollowed() throws {
        try withFolder { folder in
            let target = folder + "precious.txt"
            let path = folder + "luacov.stats.out"
            try "keep me\n".write(toFile: target, atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
            try ReportFile.writeReplacing("stats\n", to: path)
            #expect(try contents(target) == "keep me\n")
            #expect(try contents(path) == "stats\n")
            let kind = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
            #expect(kind == .typeRegular)
        }
    }

    @Test("no temporary file is left beside the report")
    func noTemporaryLeft() throws {
        try withFolder { folder in
            try ReportFile.writeReplacing("x\n", to: folder + "lcov.info")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(names == ["lcov.info"])
        }
    }

    @Test("a report that cannot be written says why")
    func failureSaysWhy() throws {
        try withFolder { folder in
            #expect(throws: ReportFile.WriteError.self) { try ReportFile.writeReplacing("x\n", to: folder + "missing/lcov.info") }
        }
    }
}

@Suite("Temporary files left by a writer that was killed are removed by the next write")
struct StaleTemporariesTests {
    @Test("only the temporaries of writers that no longer run are removed")
    func onlyDeadWriters() throws {
        try withFolder { folder in
            let prefix = ReportFile.temporaryPrefix(of: "lcov.info")
            let dead = prefix + "boot-a:100:5-RANDOM1"
            let alive = prefix + "boot-a:200:6-RANDOM2"
            let unnamed = prefix + "RANDOM3"
            for name in [dead, alive, unnamed] {
                try "partial".write(toFile: folder + name, atomically: false, encoding: .utf8)
            }
            ReportFile.removeStaleTemporaries(of: "lcov.info", in: folder, isRunning: { $0 == "boot-a:200:6" })
            let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
            #expect(left == [alive, unnamed])
        }
    }

    @Test("a folder at a temporary's name is not removed: it is not the writer's")
    func foldersAreLeft() throws {
        try withFolder { folder in
            let name = ReportFile.temporaryPrefix(of: "lcov.info") + "boot-a:100:5-RANDOM"
            try FileManager.default.createDirectory(atPath: folder + name, withIntermediateDirectories: false)
            ReportFile.removeStaleTemporaries(of: "lcov.info", in: folder, isRunning: { _ in false })
            #expect(FileManager.default.fileExists(atPath: folder + name))
        }
    }
}

@Suite("JUnit reports are written in place, every step checked")
struct ReportFileInPlaceTests {
    @Test("the file holds the report, whole")
    func writesInPlace() throws {
        try withFolder { folder in
            let path = folder + "junit.xml"
            try ReportFile.write("<testsuites/>\n", to: path)
            #expect(try contents(path) == "<testsuites/>\n")
        }
    }

    @Test("a device that refuses the bytes fails the write with its error")
    func fullDeviceFails() throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"), "/dev/full is there on Linux")
        #expect(throws: ReportFile.WriteError(description: String(cString: strerror(ENOSPC)))) {
            try ReportFile.write("x\n", to: "/dev/full")
        }
    }
}
