import CountdownCore
import SystemIdentity
@testable import SQLiteStore
import Foundation
import GRDB
import Testing

/// The registrations folder of the store in `dir`.
private func writersFolder(_ dir: String) -> String { dir + "/" + StoreWriters.folderName }

private func registrations(_ dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: writersFolder(dir))) ?? []).sorted()
}

/// What a process that died with the store open for writing leaves: its
/// registration (on another boot, so it cannot be running).
private func leaveStaleRegistration(in dir: String, pid: Int = 4242) throws {
    try FileManager.default.createDirectory(atPath: writersFolder(dir), withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: writersFolder(dir) + "/00000000-0000-0000-0000-000000000000:\(pid):123", contents: nil)
}

@Suite("After a crash the store is checked once; after normal exits never", .serialized)
struct CrashCheckTests {
    @Test("a writer registers before its first write and its registration goes with its store; the next open checks nothing")
    func cleanCloseChecksNothing() throws {
        let dir = temporaryDirectory()
        // Creating the store is a write.
        try SQLiteCountdownStore(directory: dir).save(record("first"))
        #expect(registrations(dir) == [])
        do {
            let writer = SQLiteCountdownStore(directory: dir)
            _ = try writer.list()
            #expect(registrations(dir) == [], "a read registered the process")
            try writer.save(record("a"))
            #expect(registrations(dir) == [ProcessIdentity.current])
        }
        #expect(registrations(dir) == [])
        let next = SQLiteCountdownStore(directory: dir)
        #expect(try next.load(id: "a") != nil)
        #expect(next.integrityChecks == 0)
    }

    @Test("two stores of one process share one registration, removed when the last goes")
    func sharedRegistration() throws {
        let dir = temporaryDirectory()
        let first = SQLiteCountdownStore(directory: dir)
        try first.save(record("a"))
        do {
            let second = SQLiteCountdownStore(directory: dir)
            try second.save(record("b"))
            #expect(registrations(dir) == [ProcessIdentity.current])
        }
        #expect(registrations(dir) == [ProcessIdentity.current], "the second store's end removed the first's registration")
        withExtendedLifetime(first) {}
    }

    @Test("a registration left by a process that died makes the next open check once and clear it; the open after checks nothing")
    func staleRegistrationCheckedOnce() throws {
        let dir = temporaryDirectory()
        try SQLiteCountdownStore(directory: dir).saveAll((0..<500).map { record("c\($0)") })
        try leaveStaleRegistration(in: dir)
        let next = SQLiteCountdownStore(directory: dir)
        #expect(try next.load(id: "c7") != nil)
        #expect(next.integrityChecks == 1)
        #expect(registrations(dir) == [])
        let after = SQLiteCountdownStore(directory: dir)
        #expect(try after.load(id: "c7") != nil)
        #expect(after.integrityChecks == 0)
    }

    @Test("several stale registrations cost one check")
    func severalStale() throws {
        let dir = temporaryDirectory()
        try SQLiteCountdownStore(directory: dir).save(record("a"))
        for pid in [11, 12, 13] { try leaveStaleRegistration(in: dir, pid: pid) }
        let next = SQLiteCountdownStore(directory: dir)
        _ = try next.list()
        #expect(next.integrityChecks == 1)
        #expect(registrations(dir) == [])
    }

    @Test("the registration of a process that still runs costs no check and is left")
    func liveRegistration() throws {
        let dir = temporaryDirectory()
        try SQLiteCountdownStore(directory: dir).save(record("a"))
        let parent = try #require(ProcessIdentity.identity(of: getppid()))
        try FileManager.default.createDirectory(atPath: writersFolder(dir), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: writersFolder(dir) + "/" + parent, contents: nil)
        let next = SQLiteCountdownStore(directory: dir)
        _ = try next.list()
        #expect(next.integrityChecks == 0)
        #expect(registrations(dir) == [parent])
    }

    @Test("a damaged file found after a crash is refused, naming the file and the process, left as it is, and refused by every later open")
    func damagedAfterCrash() throws {
        let dir = try copyOfStore(try checkpointedStore(3_000))
        let path = StateDirectory.storePath(in: dir)
        try damageMiddlePage(of: path)
        try leaveStaleRegistration(in: dir, pid: 4242)
        let before = contents(path)
        for _ in 0..<2 {
            let store = SQLiteCountdownStore(directory: dir)
            #expect { try store.load(id: "c1") } throws: { error in
                guard let error = error as? StoreError else { return false }
                return error.kind == .corrupt && error.description.contains(path)
                    && error.description.contains("after cdscript process 4242 ended without closing it")
            }
            #expect(store.integrityChecks == 1)
            #expect(contents(path) == before)
        }
        #expect(registrations(dir).count == 1, "\(registrations(dir))")
        // The check command reports it too, and says a process died with it open.
        let report = try SQLiteCountdownStore(directory: dir).check()
        #expect(!report.isWhole)
        #expect(report.notes.contains { $0.contains("process 4242 ended without closing the store") })
    }

    @Test("a checker that dies while checking leaves its claim, which the next open takes over and checks")
    func deadChecker() throws {
        let dir = temporaryDirectory()
        try SQLiteCountdownStore(directory: dir).save(record("a"))
        try FileManager.default.createDirectory(atPath: writersFolder(dir), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: writersFolder(dir) + "/00000000-0000-0000-0000-000000000000:77:1" + StoreWriters.claimSuffix, contents: nil)
        let next = SQLiteCountdownStore(directory: dir)
        _ = try next.list()
        #expect(next.integrityChecks == 1)
        #expect(registrations(dir) == [])
    }
}
