#if canImport(Glibc)
import Glibc
#endif
import LuaHost
import SystemIdentity

extension ReportFile {
    /// Writes a file that the run owns (`--coverage`'s luacov.stats.out and
    /// lcov.info) whole or not at all: into a new temporary file in the same
    /// folder, flushed to disk, then renamed over `path`. A symbolic link placed
    /// at `path` is replaced, never followed (its target stays as it was), and a
    /// run killed while it writes leaves the old file, not a truncated one. The
    /// temporary file's name carries its writer (`.lcov.info.tmp-OWNER-RANDOM`,
    /// OWNER as `ProcessIdentity` names a process): what a run killed while it
    /// wrote left behind is removed by the next write of the same file.
    static func writeReplacing(_ text: String, to path: String) throws(WriteError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        removeStaleTemporaries(of: base, in: folder)
        do throws(FileReplacement.Failure) {
            try FileReplacement.write(text, to: path, durable: true, tag: ProcessIdentity.current + "-")
        } catch {
            throw WriteError(description: error.description)
        }
    }
}
