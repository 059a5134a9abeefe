#if canImport(Glibc)
import Glibc
#endif
import SystemIdentity
import Testing

#if os(Linux)
@Suite("Process identities: bootid:pid:starttime, told apart from a reused pid")
struct ProcessIdentityTests {
    @Test("this process is named by this boot's id, its pid and its start time, and runs")
    func current() throws {
        let parts = ProcessIdentity.current.split(separator: ":").map(String.init)
        #expect(parts.count == 3)
        #expect(parts.first == BootID.current)
        #expect(parts.dropFirst().first == String(getpid()))
        #expect(UInt64(parts.last ?? "") != nil, "the start time is a number of clock ticks")
        #expect(ProcessIdentity.identity(of: getpid()) == ProcessIdentity.current)
        #expect(ProcessIdentity.isRunning(ProcessIdentity.current))
        #expect(ProcessIdentity.pid(in: ProcessIdentity.current) == String(getpid()))
    }

    @Test("a name of another boot, another start time or no process at all does not run")
    func notRunning() throws {
        let parts = ProcessIdentity.current.split(separator: ":").map(String.init)
        let start = try #require(UInt64(parts[2]))
        #expect(!ProcessIdentity.isRunning("another-boot:\(parts[1]):\(parts[2])"))
        #expect(!ProcessIdentity.isRunning("\(parts[0]):\(parts[1]):\(start + 1)"), "the pid reused by a later process")
        #expect(ProcessIdentity.identity(of: pid_t.max) == nil)
        #expect(!ProcessIdentity.isRunning("\(parts[0]):\(pid_t.max):\(parts[2])"))
        #expect(!ProcessIdentity.isRunning("not an identity"))
        #expect(ProcessIdentity.pid(in: "not an identity") == "not an identity")
    }
}
#endif
