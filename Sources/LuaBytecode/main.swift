import CLua
#if canImport(Glibc)
import Glibc
#endif

// The build's Lua compiler (run by Plugins/LuaBytecodePlugin while LuaHost
// builds): compiles the host's own Lua files with the Lua library the binary
// links, and writes their bytecode as a Swift source file. Compiling them at
// every start was a third of a one-line script's instructions
// (docs/performance.md, "The host's Lua compiled at build time").
//
//     LuaBytecode OUTPUT.swift ENUM (NAME CHUNKNAME INPUT.lua)...
//
// Each NAME becomes `static let NAME: [UInt8]` of ENUM, the chunk as `lua_dump`
// writes it, debug information kept (error messages keep CHUNKNAME:LINE).

/// Writes a message to standard error (the plugin shows it as the build's error).
func complain(_ text: String) {
    _ = text.withCString { write(2, $0, strlen($0)) }
}

/// The bytes `lua_dump` writes.
final class Sink {
    var bytes: [UInt8] = []
}

/// The file at `path`, or nil when it cannot be read.
func contents(of path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    return ferror(file) == 0 ? bytes : nil
}

/// The bytecode of `source`, compiled as `chunkName`; nil with a message when it does not compile.
func bytecode(of source: [UInt8], chunkName: String, file: String) -> [UInt8]? {
    let L = luaL_newstate()!
    defer { lua_close(L) }
    let status = source.withUnsafeBufferPointer { raw in
        raw.withMemoryRebound(to: CChar.self) { luaL_loadbufferx(L, $0.baseAddress, $0.count, chunkName, "t") }
    }
    guard status == LUA_OK else {
        complain("\(file): \(lua_tolstring(L, -1, nil).map { String(cString: $0) } ?? "does not compile")\n")
        return nil
    }
    let sink = Sink()
    let written = lua_dump(L, { _, data, size, context in
        let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
        sink.bytes += UnsafeRawBufferPointer(start: data, count: size)
        return 0
    }, Unmanaged.passUnretained(sink).toOpaque(), 0)
    guard written == 0 else {
        complain("\(file): lua_dump failed\n")
        return nil
    }
    return sink.bytes
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, (arguments.count - 3) % 3 == 0 else {
    complain("usage: LuaBytecode OUTPUT.swift ENUM (NAME CHUNKNAME INPUT.lua)...\n")
    exit(64)
}
var swift = "// Written by Sources/LuaBytecode while the package builds: bytecode of the host's Lua files.\n"
swift += "enum \(arguments[2]) {\n"
for first in stride(from: 3, to: arguments.count, by: 3) {
    let (name, chunkName, input) = (arguments[first], arguments[first + 1], arguments[first + 2])
    guard let source = contents(of: input) else {
        complain("LuaBytecode: cannot read \(input)\n")
        exit(1)
    }
    guard let bytes = bytecode(of: source, chunkName: chunkName, file: input) else { exit(1) }
    swift += "    /// \(chunkName.dropFirst()), compiled.\n"
    swift += "    static let \(name): [UInt8] = [" + bytes.map { String($0) }.joined(separator: ",") + "]\n"
}
swift += "}\n"
// Written whole to a temporary file, then renamed: a build never sees half a file.
let output = arguments[1]
let temporary = output + ".partial"
guard let file = fopen(temporary, "wb") else {
    complain("LuaBytecode: cannot write \(temporary)\n")
    exit(1)
}
let wrote = fputs(swift, file) >= 0
guard fclose(file) == 0, wrote, rename(temporary, output) == 0 else {
    complain("LuaBytecode: cannot write \(output)\n")
    exit(1)
}
