import Foundation
import Testing

/// scripts/link-release, the release executables' linker (Package.swift's
/// `releaseLinking`): a program linked through it carries the C libraries it
/// uses, so the dynamic loader has only libc's own to map at start; with -static,
/// which Package.swift asks for, glibc's too and no loader runs. Tried on small C
/// programs, since CI's tests build no release binary.
@Suite("The release linker takes the C libraries' archives")
struct ReleaseLinkTests {
    static let program = """
        #include <sqlite3.h>
        #include <lua5.4/lauxlib.h>
        #include <lua5.4/lualib.h>
        #include <stdio.h>
        int main(void) {
            lua_State *L = luaL_newstate();
            luaL_openlibs(L);
            printf("%s %d\\n", sqlite3_libversion(), luaL_dostring(L, "return 6 * 7"));
            lua_close(L);
            return 0;
        }
        """

    @Test("a program linked by it with -no-pie needs neither libsqlite3 nor liblua5.4 at run time, and runs")
    func linksArchives() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = try Self.link(Self.program, in: folder, flags: ["-no-pie"], libraries: ["-lsqlite3", "-llua5.4", "-lm", "-ldl"])
        let libraries = try Self.run("/usr/bin/env", ["ldd", binary.path])
        #expect(libraries.status == 0, "\(libraries.output)")
        #expect(!libraries.output.contains("libsqlite3") && !libraries.output.contains("liblua5.4"), "\(libraries.output)")
        #expect(libraries.output.contains("libc.so"), "\(libraries.output)")
        let ran = try Self.run(binary.path, [])
        #expect(ran.status == 0 && ran.output.hasPrefix("3.") && ran.output.hasSuffix(" 0\n"), "\(ran.output)")
    }

    /// What a static glibc could lose: the names a Redis URL or a missing $HOME make
    /// cdscript look up (hiredis's getaddrinfo, Foundation's getpwuid_r).
    static let lookups = """
        #include <netdb.h>
        #include <pwd.h>
        #include <stdio.h>
        #include <string.h>
        #include <unistd.h>
        int main(void) {
            struct addrinfo hints, *found = NULL;
            memset(&hints, 0, sizeof hints);
            hints.ai_socktype = SOCK_STREAM;
            int resolved = getaddrinfo("localhost", "6379", &hints, &found);
            struct passwd *user = getpwuid(getuid());
            printf("%s %s\\n", resolved == 0 && found != NULL ? "resolved" : gai_strerror(resolved),
                   user != NULL && user->pw_dir != NULL && user->pw_dir[0] == '/' ? "home" : "no-home");
            if (found != NULL) freeaddrinfo(found);
            return 0;
        }
        """

    @Test("a program linked by it with -static, as Package.swift asks, loads nothing and still resolves localhost and the user's home")
    func linksStatic() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = try Self.link(Self.lookups, in: folder, flags: ["-static"])
        let libraries = try Self.run("/usr/bin/env", ["ldd", binary.path])
        #expect(libraries.output.contains("not a dynamic executable"), "\(libraries.output)")
        let ran = try Self.run(binary.path, [])
        #expect(ran.status == 0 && ran.output == "resolved home\n", "\(ran.output)")
    }

    /// A folder of its own under the temporary directory, for one test's files.
    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("link-release-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// `source` compiled by clang and linked through scripts/link-release with
    /// `flags` before it and `libraries` after it: the program's path (expected built).
    static func link(_ source: String, in folder: URL, flags: [String], libraries: [String] = []) throws -> URL {
        let file = folder.appendingPathComponent("program.c"), binary = folder.appendingPathComponent("program")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let linker = BinaryRunner.packageRoot.appendingPathComponent("scripts/link-release").path
        let built = try run("/usr/bin/env", ["clang", "-fuse-ld=\(linker)"] + flags + [file.path, "-o", binary.path] + libraries)
        #expect(built.status == 0, "\(built.output)")
        return binary
    }

    /// Runs `path` with `arguments`; its status and its stdout and stderr together.
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
