import Foundation

/// Finds test files: files given by name, and every `*_test.lua` and
/// `*_spec.lua` under folders given, in byte order of their paths.
public enum TestDiscovery {
    public static let suffixes = ["_test.lua", "_spec.lua"]
    public static let defaultPaths = ["tests"]

    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let message: String
        public var description: String { message }
    }

    /// The test files for `paths` (the default folder when empty). A file named
    /// explicitly runs whatever its name; a folder contributes only files with a
    /// test suffix, hidden folders left out.
    public static func files(in paths: [String]) throws(Failure) -> [String] {
        let roots = paths.isEmpty ? defaultPaths : paths
        var found: [String] = []
        var seen: Set<String> = []
        let fm = FileManager.default
        for root in roots {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: root, isDirectory: &isDirectory) else {
                throw Failure(message: "no such file or folder: \(root)")
            }
            var files: [String]
            if isDirectory.boolValue {
                let prefix = root.hasSuffix("/") ? root : root + "/"
                files = (try? fm.subpathsOfDirectory(atPath: root)) ?? []
                files = files
                    .filter { relative in
                        isTestFile(relative) && !relative.split(separator: "/").contains { $0.hasPrefix(".") }
                    }
                    .map { prefix + $0 }
                    .filter { path in
                        var dir: ObjCBool = false
                        return fm.fileExists(atPath: path, isDirectory: &dir) && !dir.boolValue
                    }
                files.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            } else {
                files = [root]
            }
            for file in files where seen.insert(file).inserted {
                found.append(file)
            }
        }
        if found.isEmpty {
            throw Failure(message: "no test files (*_test.lua, *_spec.lua) in \(roots.joined(separator: ", "))")
        }
        return found
    }

    public static func isTestFile(_ path: String) -> Bool {
        suffixes.contains { path.hasSuffix($0) }
    }
}
