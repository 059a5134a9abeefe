import Foundation
import PackagePlugin

/// Compiles a target's `Lua/*.lua` files into bytecode at build time
/// (Sources/LuaBytecode), as one generated Swift file: `HostBytecode.NAME`, the
/// chunk named `=cdscript/NAME.lua`, for each file NAME.lua.
@main
struct LuaBytecodePlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let folder = target.directoryURL.appending(path: "Lua")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".lua") }.sorted()
        let output = context.pluginWorkDirectoryURL.appending(path: "HostBytecode.swift")
        var arguments = [output.path, "HostBytecode"]
        var inputs: [URL] = []
        for file in files {
            let input = folder.appending(path: file)
            arguments += [String(file.dropLast(4)), "=cdscript/\(file)", input.path]
            inputs.append(input)
        }
        return [.buildCommand(displayName: "Compiling \(target.name)'s Lua into bytecode",
                              executable: try context.tool(named: "LuaBytecode").url,
                              arguments: arguments, inputFiles: inputs, outputFiles: [output])]
    }
}
