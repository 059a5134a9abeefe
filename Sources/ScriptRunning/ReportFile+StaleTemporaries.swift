#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import LuaHost
import SystemIdentity

extension ReportFile {
    /// The start of the names of `base`'s temporary files (`.lcov.info.tmp-`).
    static func temporaryPrefix(of base: String) -> String { FileReplacement.temporaryPrefix(of: base) }

    /// Removes the temporary files of `base` in `folder` ("" for the current one)
    /// that a writer killed before its rename left behind (`kill -9` during
    /// `--coverage`'s write): only those whose writer, named in the file's name,
    /// no longer runs (`isRunning`). Another run writing the same report in the
    /// same folder keeps its own. A name that names no writer (written before
    /// names carried one) is left: nothing says its writer is gone.
    static func removeStaleTemporaries(of base: String, in folder: String,
                                       isRunning: (String) -> Bool = ProcessIdentity.isRunning) {
        let prefix = temporaryPrefix(of: base)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            // OWNER-RANDOM; the owner (boot id:pid:start time) has dashes of its own.
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.lastIndex(of: "-") else { continue }
            let owner = String(rest[..<dash])
            guard owner.split(separator: ":").count == 3, !isRunning(owner) else { continue }
            var info = stat()
            // Only a file: a folder or anything else at such a name is not ours.
            guard lstat(folder + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            unlink(folder + name)
        }
    }
}
