import CommandEnding
import CountdownCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `cdscript new NAME`: a script, its tests and an editor setup to start from,
/// in the current folder; no file is ever overwritten.
public enum NewScript {
    /// Writes BASENAME.lua and tests/BASENAME_spec.lua from the templates
    /// (`__NAME__` replaced by `baseName`), and .luarc.json unless there is one;
    /// exit 1 when the script or its test exists already or cannot be written.
    public static func create(baseName: String, script template: [UInt8], spec specTemplate: [UInt8]) throws(CommandExit) {
        let script = "\(baseName).lua"
        let spec = "tests/\(baseName)_spec.lua"
        let fm = FileManager.default
        for path in [script, spec] where fm.fileExists(atPath: path) {
            printError("cdscript new: \(path) already exists; nothing was written")
            throw CommandExit(status: 1)
        }
        let fill = { (template: [UInt8]) in
            Data(String(decoding: template, as: UTF8.self).replacing("__NAME__", with: baseName).utf8)
        }
        do {
            try fm.createDirectory(atPath: "tests", withIntermediateDirectories: true)
            try fill(template).write(to: URL(fileURLWithPath: script), options: .withoutOverwriting)
            emit("created \(script)", what: "the report")
            try fill(specTemplate).write(to: URL(fileURLWithPath: spec), options: .withoutOverwriting)
            emit("created \(spec)", what: "the report")
        } catch {
            printError("cdscript new: \(ErrorText.line(error))")
            throw CommandExit(status: 1)
        }
        let annotations = AnnotationFile.find()
        if fm.fileExists(atPath: ".luarc.json") {
            emit("kept the existing .luarc.json" + (annotations.map { " (cdscript's annotations: \($0))" } ?? ""), what: "the report")
        } else {
            do {
                try Self.luarc(library: annotations).write(to: URL(fileURLWithPath: ".luarc.json"), options: .withoutOverwriting)
                emit("created .luarc.json", what: "the report")
            } catch {
                printError("cdscript new: .luarc.json: \(ErrorText.line(error))")
                throw CommandExit(status: 1)
            }
        }
        if annotations == nil {
            printError("cdscript new: cdscript's annotation file (share/cdscript/cdscript.lua) was not found next to this binary; .luarc.json names no library")
        }
        emit("next: cdscript test, then cdscript \(script)", what: "the report")
    }

    /// lua-language-server's settings: Lua 5.4, and cdscript's annotation folder as a
    /// library (it declares the script globals and the test ones: describe, it, expect, clock).
    static func luarc(library: String?) throws -> Data {
        var settings: [String: JSONValue] = [
            "$schema": .string("https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json"),
            "runtime.version": .string("Lua 5.4"),
        ]
        if let library { settings["workspace.library"] = .array([.string(URL(fileURLWithPath: library).deletingLastPathComponent().path)]) }
        return Data((JSONValue.object(settings).text(pretty: true) + "\n").utf8)
    }
}

/// Where cdscript's lua-language-server annotation file is: PREFIX/share/cdscript/
/// for an installed binary (PREFIX/bin/cdscript), types/ in a checkout the binary
/// was built in (.build/...).
enum AnnotationFile {
    static func find() -> String? {
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
            .resolvingSymlinksInPath()
        var folder = exe.deletingLastPathComponent()
        let installed = folder.deletingLastPathComponent().appendingPathComponent("share/cdscript/cdscript.lua").path
        if FileManager.default.isReadableFile(atPath: installed) { return installed }
        // A build folder inside a checkout: walk up to the folder with Package.swift.
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("types/cdscript.lua").path
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
               FileManager.default.isReadableFile(atPath: candidate) {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
