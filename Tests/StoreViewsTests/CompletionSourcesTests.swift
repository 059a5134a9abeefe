import CountdownCore
import Foundation
import Testing
@testable import StoreViews

@Suite struct CompletionSourcesTests {
    @Test func theStoreOptionsOnTheLineAreReadAsAShellWouldPassThemTheLastOfEachWinning() {
        let location = StoredIDs.location(typed: ["cdscript", "cancel", "--state-dir", "'/tmp/a b'", "--store=redis://one", "--store", "\"redis://two\""])
        #expect(location.stateDir == "/tmp/a b")
        #expect(location.store == "redis://two")
    }

    @Test func aLineWithoutStoreOptionsNamesTheDefaultStore() {
        #expect(StoredIDs.location(typed: ["cdscript", "pause", "--"]) == StoreLocation())
    }

    @Test func quotesAndBackslashesThatOnlyQuoteAreRemoved() {
        #expect(StoredIDs.unquoted(#"'it''s'"#) == "its")
        #expect(StoredIDs.unquoted(#"a\ b"#) == "a b")
        #expect(StoredIDs.unquoted(#""say \"hi\"""#) == #"say "hi""#)
        #expect(StoredIDs.unquoted(#"'\'"#) == #"\"#)
    }

    @Test func theIdsOfferedAreTheStoredOnesSortedWithoutThoseHoldingControlCharacters() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let location = StoreLocation(stateDir: folder.path)
        let store = location.sqliteStore()
        let now = storeNow()
        for id in ["tea", "exam", "bad\u{1B}[2J"] {
            try store.save(try StoredCountdown.started(id: id, spec: .duration(60 * Time.nanosecondsPerSecond), every: Time.nanosecondsPerSecond,
                                                       overtime: false, at: now))
        }
        #expect(StoredIDs.sorted(location) == ["exam", "tea"])
    }

    @Test func eachCommandIsOfferedOnlyTheIdsItCanActOn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let location = StoreLocation(stateDir: folder.path)
        let store = location.sqliteStore()
        let now = storeNow()
        for id in ["running", "paused"] {
            try store.save(try StoredCountdown.started(id: id, spec: .duration(600 * Time.nanosecondsPerSecond), every: Time.nanosecondsPerSecond,
                                                       overtime: false, at: now))
        }
        _ = try store.applyChange(id: "paused", at: now) { record, at in record.pauseChange(at: at) }
        #expect(StoredIDs.sorted(location, .running) == ["running"])
        #expect(StoredIDs.sorted(location, .paused) == ["paused"])
        #expect(StoredIDs.sorted(location, .unfinished) == ["paused", "running"])
    }

    @Test func aStoreThatCannotBeReadOffersNothingAndSaysNothing() {
        #expect(StoredIDs.sorted(StoreLocation(store: "not a url")).isEmpty)
        #expect(StoredIDs.sorted(StoreLocation(stateDir: "/nonexistent/storeviews")).isEmpty)
    }

    @Test func pathsAreOfferedAsFoldersAndTheFilesAccepted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/specs", withIntermediateDirectories: true)
        for name in ["a_spec.lua", "b.lua", ".hidden_spec.lua"] {
            _ = FileManager.default.createFile(atPath: folder.path + "/" + name, contents: Data())
        }
        let found = PathCompletion.entries(under: folder.path + "/") { $0.hasSuffix("_spec.lua") }
        #expect(found == [folder.path + "/a_spec.lua", folder.path + "/specs/"])
        let bash = PathCompletion.entries(under: folder.path + "/s", markFolders: false) { _ in true }
        #expect(bash == [folder.path + "/specs"])
    }
}
