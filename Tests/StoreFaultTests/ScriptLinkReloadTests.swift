import Foundation
import Testing

extension StoreFaults {
    /// `cdscript run --watch` of a script that is a symbolic link (a dotfiles
    /// checkout linked into place): the file behind the link is the script too.
    @Suite("cdscript run --watch follows a linked script's target and the link", .serialized)
    struct ScriptLinkReloadTests {
        @Test("saving the link's target reloads, a new link made in the old one's place reloads, and a FIFO renamed over the script is named as a FIFO")
        func linkedScript() throws {
            // The target in a folder of its own: only the link's folder was watched.
            let targets = Scratch.directory("link-targets")
            let linkFolder = Scratch.directory("link-folder")
            let first = targets + "/first.lua", second = targets + "/second.lua", link = linkFolder + "/timer.lua"
            try ScriptReloadTests.save(ScriptReloadTests.version("v1"), to: first)
            #expect(symlink(first, link) == 0)
            let run = try LiveProcess(["run", "--watch", "--plain", link])
            defer { run.signal(SIGKILL); run.wait() }
            // The reloader starts following once the first version has run: a tick later.
            #expect(run.waitForLine { $0 == "v1 59" } != nil, "\(run.texts) \(run.stderr)")

            try ScriptReloadTests.save(ScriptReloadTests.version("v2"), to: first)
            #expect(run.waitForLine(timeout: 10) { $0.hasPrefix("v2 ") } != nil, "the target was saved: \(run.texts) \(run.stderr)")

            // As `ln -sf` replaces a link: removed, then made again (no write, no rename).
            try ScriptReloadTests.save(ScriptReloadTests.version("v3"), to: second)
            #expect(unlink(link) == 0 && symlink(second, link) == 0)
            #expect(run.waitForLine(timeout: 10) { $0.hasPrefix("v3 ") } != nil, "the link was replaced: \(run.texts) \(run.stderr)")

            // The new target is followed from then on.
            try ScriptReloadTests.save(ScriptReloadTests.version("v4"), to: second)
            #expect(run.waitForLine(timeout: 10) { $0.hasPrefix("v4 ") } != nil, "the new target was saved: \(run.texts) \(run.stderr)")

            // A FIFO renamed over the script: the reload fails, saying what it is; v4 runs on.
            let fifo = linkFolder + "/fifo.tmp"
            #expect(mkfifo(fifo, 0o600) == 0 && rename(fifo, link) == 0)
            let ticks = run.texts.count
            #expect(run.waitForLine(timeout: 5) { _ in run.texts.count > ticks + 1 } != nil)
            #expect(run.texts.last?.hasPrefix("v4 ") == true, "\(run.texts)")
            run.signal(SIGTERM)
            #expect(run.wait() == 143, "\(run.stderr)")
            // stderr is read whole once the run has ended.
            #expect(run.stderr.contains("cannot read script \(link): it is a FIFO (named pipe); the previous version runs on"), "\(run.stderr)")
            #expect(!run.stderr.contains("permission"), "\(run.stderr)")
        }
    }
}
