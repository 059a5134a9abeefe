import Foundation
import Testing

/// The `cdscript` binary sheds ICU's 34 MB of data only while no module linked
/// into it imports Foundation (FoundationEssentials is fine): one file is
/// enough to bring it all back. The modules are those `cdscript` reaches in
/// Package.swift, so a module added to its dependencies is scanned too, and a
/// module that leaves it (the web server, once it is an executable of its own)
/// is not. The benchmarks (cdbench) and the tests may import Foundation.
@Suite("No module of the cdscript binary imports Foundation")
struct FoundationFreeProductTests {
    /// The targets the `cdscript` binary is built from: its executable target
    /// (cdscript-main) and what it depends on, directly or not.
    static func productModules() throws -> Set<String> {
        let targets = try ModuleTableTests.targets()
        var reached: Set<String> = ["cdscript-main"], waiting = ["cdscript-main"]
        while let name = waiting.popLast() {
            for dependency in targets[name] ?? [] where reached.insert(dependency).inserted {
                waiting.append(dependency)
            }
        }
        return reached
    }

    /// (path under Sources/, line number, line) of every Swift line of `modules`.
    static func lines(of modules: Set<String>) throws -> [(String, Int, String)] {
        let sources = BinaryRunner.packageRoot.appendingPathComponent("Sources")
        var result: [(String, Int, String)] = []
        for module in modules.sorted() {
            let folder = sources.appendingPathComponent(module)
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    result.append(("\(module)/\(file)", index + 1, String(line)))
                }
            }
        }
        return result
    }

    /// `import Foundation`, `@_exported import Foundation`, `import struct Foundation.X`,
    /// `import FoundationInternationalization`; not `import FoundationEssentials`.
    static func importsFoundation(_ line: String) -> Bool {
        line.firstMatch(of: /^\s*(@\w+\s+)*import\s+(\w+\s+)?Foundation(Internationalization)?(\.\w+)*\s*(\/\/.*)?$/) != nil
    }

    @Test("the modules are read from Package.swift: cdscript reaches LuaHost, CountdownCore and the stores, not cdbench")
    func modulesFromTheManifest() throws {
        let modules = try Self.productModules()
        #expect(modules.isSuperset(of: ["cdscript-main", "cdscript", "LuaHost", "CountdownCore", "SQLiteStore", "RedisStore", "ScriptTesting"]), "\(modules.sorted())")
        #expect(!modules.contains("cdbench") && !modules.contains("CountdownWeb") && !modules.contains("cdscript-serve"))
    }

    @Test("the pattern finds every form of a Foundation import, and no other import")
    func patternFindsImports() {
        for line in ["import Foundation", "@_exported import Foundation", "import struct Foundation.Date", "import FoundationInternationalization", "import Foundation // why"] {
            #expect(Self.importsFoundation(line), "\(line)")
        }
        for line in ["import FoundationEssentials", "// import Foundation", "import CountdownCore", "let x = \"import Foundation\""] {
            #expect(!Self.importsFoundation(line), "\(line)")
        }
    }

    @Test("no Swift file of a module cdscript links imports Foundation")
    func noFoundationImports() throws {
        let lines = try Self.lines(of: Self.productModules())
        #expect(lines.count > 10_000, "the walk found the sources")
        for (file, number, line) in lines where Self.importsFoundation(line) {
            Issue.record("\(file):\(number): \(line) (FoundationEssentials, or a helper of CountdownCore, instead)")
        }
    }

    @Test("nothing in those modules asks Foundation for a named or the current zone, which without ICU silently reads as GMT")
    func noFoundationZones() throws {
        let lines = try Self.lines(of: Self.productModules())
        let zoneCall = /TimeZone\s*\.\s*(current|autoupdatingCurrent|knownTimeZoneIdentifiers)|TimeZone\s*\(\s*identifier:|TimeZone\s*\(\s*abbreviation:|Calendar\s*\.\s*current|Locale\s*\.\s*current/
        for (file, number, line) in lines where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
            #expect(line.firstMatch(of: zoneCall) == nil, "\(file):\(number): \(line) (SystemLocalZone reads the machine's zone)")
        }
    }
}
