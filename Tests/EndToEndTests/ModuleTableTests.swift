import Foundation
import Testing

/// The module table of README ("Layers, each depending only on those above it")
/// and docs/design.md's list of the shim's C files, read against Package.swift
/// and the tree: a module added, moved or split shows here before a reader
/// trips on the docs.
@Suite("The docs' module table and file lists hold to Package.swift and the tree")
struct ModuleTableTests {
    static let root = BinaryRunner.packageRoot

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Package.swift's targets (not test targets, nor test support under Tests/)
    /// and the targets each depends on by name (products of other packages left out).
    static func targets() throws -> [String: Set<String>] {
        let manifest = try text("Package.swift")
        var targets: [String: Set<String>] = [:]
        let declaration = /\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"/
        for match in manifest.matches(of: declaration) {
            let rest = manifest[match.range.upperBound...]
            // The declaration ends at its closing parenthesis: count brackets of both kinds.
            var depth = 1, end = rest.startIndex
            for index in rest.indices {
                let c = rest[index]
                if c == "(" || c == "[" { depth += 1 }
                if c == ")" || c == "]" { depth -= 1 }
                if depth == 0 { end = index; break }
            }
            let body = rest[..<end]
            if body.contains("path: \"Tests/") { continue }
            var dependencies: Set<String> = []
            if let list = body.firstMatch(of: /dependencies:\s*\[((?:[^\[\]]|\[[^\]]*\])*)\]/) {
                let withoutProducts = String(list.1).replacing(/\.product\([^)]*\)/, with: "")
                for name in withoutProducts.matches(of: /"([^"]+)"/) { dependencies.insert(String(name.1)) }
            }
            targets[String(match.1)] = dependencies
        }
        return targets
    }

    /// README's table rows, top to bottom: the modules each row names (its first column).
    static func readmeRows() throws -> [[String]] {
        let readme = try text("README.md")
        let section = try #require(readme.range(of: "## How it is built"))
        var rows: [[String]] = []
        for line in readme[section.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") }) {
            guard line.hasPrefix("|") else { break }
            let first = line.split(separator: "|", omittingEmptySubsequences: false)[1]
            let names = first.matches(of: /`([^`]+)`/).map { String($0.1) }
            if !names.isEmpty { rows.append(names) }
        }
        return rows
    }

    @Test("README's table names every module of Package.swift once, and no other")
    func everyModuleOnce() throws {
        let targets = try Self.targets()
        let named = try Self.readmeRows().flatMap { $0 }
        #expect(Set(named) == Set(targets.keys), "only in README: \(Set(named).subtracting(targets.keys).sorted()); only in Package.swift: \(Set(targets.keys).subtracting(named).sorted())")
        #expect(named.count == Set(named).count, "named twice: \(named)")
        #expect(targets["LuaHost"]?.contains("CLuaShim") == true, "the manifest was read")
    }

    @Test("each module in README's table depends only on modules in rows above it")
    func layersPointOneWay() throws {
        let targets = try Self.targets()
        let rows = try Self.readmeRows()
        var rowOf: [String: Int] = [:]
        for (index, row) in rows.enumerated() { for name in row { rowOf[name] = index } }
        for (name, dependencies) in targets.sorted(by: { $0.key < $1.key }) {
            guard let row = rowOf[name] else { continue }
            for dependency in dependencies.sorted() {
                let below = rowOf[dependency].map { $0 >= row } ?? false
                #expect(!below, "\(name) (row \(row + 1)) depends on \(dependency) (row \(rowOf[dependency].map { $0 + 1 } ?? 0)), which is not above it")
            }
        }
    }

    @Test("docs/design.md names every C file of the shim")
    func shimFilesNamed() throws {
        let design = try Self.text("docs/design.md")
        let shim = Self.root.appendingPathComponent("Sources/CLuaShim")
        let files = try FileManager.default.contentsOfDirectory(atPath: shim.path).filter { $0.hasSuffix(".c") }
        #expect(files.count > 10)
        let stdlib = design.contains("stdlib_*.c")
        for file in files.sorted() where !(stdlib && file.hasPrefix("stdlib_")) {
            #expect(design.contains(file), "docs/design.md does not name Sources/CLuaShim/\(file)")
        }
    }
}
