import Testing
@testable import cdscript
import CommandEnding

@Suite("The command line's help lists the exit codes")
struct HelpExitCodesTests {
    @Test("--help's list of exit codes names exactly the codes of ExitStatus")
    func helpMatchesExitStatus() throws {
        let discussion = CDScript.configuration.discussion
        let list = try #require(discussion.range(of: "Exit codes:")).upperBound
        let listed = Set(discussion[list...].split(whereSeparator: { !$0.isNumber }).compactMap { Int32($0) })
        let codes = Set(ExitStatus.allCases.map(\.rawValue))
        #expect(listed == codes, "only in --help: \(listed.subtracting(codes).sorted()); only in ExitStatus: \(codes.subtracting(listed).sorted())")
    }
}
