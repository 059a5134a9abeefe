import CountdownCore
import Foundation
import Testing

@Suite("PathText splits and joins paths as NSString's path methods do")
struct PathTextTests {
    static let paths = ["/a/b", "/a/b/", "/a", "/", "a", "a/b", "a/b//", "", "./x.lua", "../up/x", "//a"]

    /// What `deletingLastPathComponent` gives, recorded: on Linux Foundation's own
    /// method traps on a single relative component ("a"), so it cannot be asked in
    /// the test; "a" -> "" is what it gives on Darwin and what its documentation says.
    static let folders: [(String, String)] = [
        ("/a/b", "/a"), ("/a/b/", "/a"), ("/a", "/"), ("/", "/"), ("a", ""), ("a/b", "a"), ("a/b//", "a"), ("", ""),
        ("./x.lua", "."), ("../up/x", "../up"), ("//a", "/"),
    ]

    @Test("the folder of a path is deletingLastPathComponent's", arguments: folders)
    func folder(_ path: String, _ expected: String) {
        #expect(PathText.folder(of: path) == expected, "\(path)")
    }

    @Test("the last component is lastPathComponent", arguments: paths)
    func last(_ path: String) {
        #expect(PathText.lastComponent(of: path) == (path as NSString).lastPathComponent, "\(path)")
    }

    @Test("joining a name is appendingPathComponent", arguments: ["/a", "/a/", "/", "a", ""])
    func joining(_ folder: String) {
        #expect(PathText.joining(folder, "x.lua") == (folder as NSString).appendingPathComponent("x.lua"), "\(folder)")
    }

    static let absolutes: [(String, String)] = [
        ("plugins", "/home/u"), ("/etc/x", "/home/u"), ("../b/./c", "/x/y"), ("a//b/", "/x"), (".", "/x"), ("..", "/x"),
        ("../../..", "/x/y"), ("/a/../../b", "/"), ("./p/../q", "/w"), ("名前/..", "/w"), ("x", "/"), ("", "/w/v"),
        ("/../a", "/w"), ("...", "/w"), ("a/.b/..c", "/w/"),
    ]

    @Test("a path made absolute is what URL's standardizedFileURL.path gives, no link followed", arguments: absolutes)
    func absolute(_ path: String, _ directory: String) {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: directory).appendingPathComponent(path)
        #expect(PathText.absolute(path, in: directory) == url.standardizedFileURL.path, "\(path) in \(directory)")
    }

    @Test("FileKind tells a directory from a file, a missing path and a link to a directory")
    func directories() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pathtext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("f").path
        FileManager.default.createFile(atPath: file, contents: Data())
        let link = folder.appendingPathComponent("l").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path)
        #expect(FileKind.isDirectory(at: folder.path))
        #expect(FileKind.isDirectory(at: link))
        #expect(!FileKind.isDirectory(at: file))
        #expect(!FileKind.isDirectory(at: folder.appendingPathComponent("missing").path))
    }
}
