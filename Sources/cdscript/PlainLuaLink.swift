import Foundation

/// The `cdscript-lua` path `cdscript test` gives specs as `arg[-1]` (busted's
/// interpreter: tl's specs run `arg[-1] -e ... FILE ARGS` with it): the link
/// installed beside this binary (scripts/install) when it leads to this very
/// binary, otherwise a link made for the run in a private temporary folder,
/// removed by `remove()` at the end of the run.
struct PlainLuaLink {
    /// The name (a symbolic or hard link to cdscript) under which the binary is
    /// the plain Lua interpreter (Sources/CLuaShim/standalone.c dispatches on it).
    static let commandName = "cdscript-lua"

    /// What specs see as `arg[-1]`.
    let path: String
    /// The folder made for the run, if one was.
    private let madeFolder: String?

    /// The installed link, or a new one; this binary's own path if no link can
    /// be made (it then runs a plain Lua file as `cdscript FILE` does).
    static func forRun(binary: String = InterpreterArguments.executablePath) -> PlainLuaLink {
        let name = Self.commandName
        let beside = (binary as NSString).deletingLastPathComponent + "/" + name
        if sameFile(beside, binary) { return PlainLuaLink(path: beside, madeFolder: nil) }
        let template = (NSTemporaryDirectory() as NSString).appendingPathComponent("cdscript-lua-XXXXXX")
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { return PlainLuaLink(path: binary, madeFolder: nil) }
        let folder = String(cString: made)
        let link = folder + "/" + name
        guard symlink(binary, link) == 0 else {
            rmdir(folder)
            return PlainLuaLink(path: binary, madeFolder: nil)
        }
        return PlainLuaLink(path: link, madeFolder: folder)
    }

    /// Removes the link and the folder made for the run (nothing when the installed link was used).
    func remove() {
        guard let madeFolder else { return }
        try? FileManager.default.removeItem(atPath: madeFolder)
    }

    /// `a` exists and is `b` (a symbolic link to it, or a hard link: the same inode).
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
