import ArgumentParser
import CommandEnding
import Glibc
import Testing
@testable import CommandLineWords

/// A library ends a command with `CommandExit` or `UsageError`; the command line
/// turns them into ArgumentParser's `ExitCode` and `ValidationError`, so that every
/// command exits as users know. And where cdscript-serve is looked for.
@Suite("A library's ending as the parser's, and the program serve hands over to")
struct CommandEndingTests {
    @Test("CommandExit becomes the ExitCode of its status")
    func exitBecomesExitCode() {
        do {
            try exitingAsCommand { throw CommandExit(.unknownCountdown) }
            Issue.record("nothing thrown")
        } catch let exit as ExitCode {
            #expect(exit.rawValue == ExitStatus.unknownCountdown.rawValue)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("UsageError becomes a ValidationError with its message (usage, exit 64)")
    func usageBecomesValidation() {
        do {
            try exitingAsCommand { throw UsageError("--redis-wait must be a number") }
            Issue.record("nothing thrown")
        } catch let usage as ValidationError {
            #expect(usage.message == "--redis-wait must be a number")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("other errors and values pass through unchanged")
    func othersPassThrough() throws {
        struct Other: Error {}
        #expect(throws: Other.self) { try exitingAsCommand { throw Other() } }
        #expect(try exitingAsCommand { 42 } == 42)
    }

    @Test("cdscript-serve is looked for beside the running executable, and a missing or unrunnable one is said")
    func serveProgram() throws {
        #expect(ServeProgram.path.hasSuffix("/cdscript-serve"), "\(ServeProgram.path)")
        let folder = "/tmp/cdscript-serve-program-\(getpid())"
        #expect(ServeProgram.unusable("\(folder)/cdscript-serve") == "\(folder)/cdscript-serve is missing: it is installed beside cdscript (scripts/install installs both)")
        mkdir(folder, 0o700)
        defer { unlink("\(folder)/cdscript-serve"); rmdir(folder) }
        let file = "\(folder)/cdscript-serve"
        close(open(file, O_CREAT | O_WRONLY, 0o644))
        #expect(ServeProgram.unusable(file) == "\(file) cannot be executed: Permission denied")
        chmod(file, 0o755)
        #expect(ServeProgram.unusable(file) == nil)
    }
}
