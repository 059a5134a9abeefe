import CountdownCore
import Foundation
import Testing

// Reads only: setenv while other tests read the environment on other threads is
// not safe in glibc.
@Suite("Reading the process environment one variable at a time")
struct ProcessEnvironmentTests {
    @Test("each variable reads as ProcessInfo's whole copy has it")
    func agreesWithProcessInfo() {
        let all = ProcessInfo.processInfo.environment
        #expect(!all.isEmpty)
        for (name, value) in all where !name.contains("=") {
            #expect(ProcessEnvironment.value(name) == value, "\(name)")
        }
    }

    @Test("a variable that is not set is nil")
    func unset() {
        #expect(ProcessEnvironment.value("CDSCRIPT_NEVER_SET_\(UUID().uuidString.prefix(8))") == nil)
    }
}
