import ArgumentParser
import Testing
@testable import cdscript

/// `cdscript --version` is answered before ArgumentParser parses anything
/// (CDScript.main), so this holds the answer to ArgumentParser's own.
@Suite("--version alone is answered as ArgumentParser answers it")
struct VersionWordsTests {
    @Test("the version text is what ArgumentParser prints for --version, with exit 0")
    func sameText() {
        do {
            _ = try CDScript.parseAsRoot(["--version"])
            Issue.record("ArgumentParser read --version as a command")
        } catch {
            #expect(CDScript.exitCode(for: error) == .success)
            #expect(CDScript.fullMessage(for: error) == CDScript.versionText)
        }
        #expect(CDScript.versionText.hasPrefix("cdscript \(CDScript.version) (Lua 5.4"), "\(CDScript.versionText)")
    }
}
