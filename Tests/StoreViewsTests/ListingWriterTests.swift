import CountdownCore
import Foundation
import Testing
@testable import StoreViews

private let s = Time.nanosecondsPerSecond
private let now = StoreInstant(boot: 100 * s, wall: 1_800_000_000 * s, bootID: "A")

/// A countdown stored under `id`, `seconds` from its end at `now` (paused ones hold them).
private func record(_ id: String, seconds: Int64 = 90, state: StoredCountdown.State = .running, title: String? = nil) -> StoredCountdown {
    var countdown = StoredCountdown(id: id, state: state, kind: .duration, wallDeadline: now.wall + seconds * s,
                                    pausedRemaining: state == .paused ? seconds * s : nil, every: s, total: seconds * s,
                                    bootID: nil, bootDeadline: nil, updatedAt: now.wall)
    countdown.title = title
    return countdown
}

/// What a writer wrote for `countdowns`, in batches of `batch`.
private func written(_ countdowns: [StoredCountdown], json: Bool, batch: Int = 1000) -> (text: String, listed: Bool) {
    var text = ""
    let writer = ListingWriter(json: json) { text += $0; return true }
    var start = 0
    while start < countdowns.count {
        _ = writer.add(Array(countdowns[start..<min(countdowns.count, start + batch)]), at: now)
        start += batch
    }
    let listed = writer.finish()
    return (text, listed)
}

/// The ids a JSON listing holds, read back by Foundation's parser.
private func ids(inJSON text: String) throws -> [String] {
    let array = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    return array.compactMap { $0["id"] as? String }
}

/// Ids a store may hold that would fool a terminal or a parser if written as they are.
private let hostileIDs = [
    "plain",
    "quote\"d 'single' \\back",
    "line\nbreak\ttab\u{1B}[2Jclear",
    "rtl\u{202E}txt.exe",
    "c1\u{9B}31m",
    "名前",
    String(repeating: "x", count: 10_000),
].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }

@Suite struct ListingWriterTests {
    @Test func theJSONListingIsAnArrayThatAParserReadsBackToTheSameIdsWhateverTheyHold() throws {
        let text = written(hostileIDs.map { record($0) }, json: true).text
        #expect(try ids(inJSON: text) == hostileIDs)
    }

    @Test func theJSONListingHoldsNoCharacterATerminalWouldActOn() {
        let text = written(hostileIDs.map { record($0) }, json: true).text
        let acted = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }
        #expect(acted.isEmpty)
    }

    @Test func theJSONListingIsTheSameWhetherTheCountdownsArriveInOneBatchOrOneByOne() {
        let countdowns = hostileIDs.map { record($0) }
        #expect(written(countdowns, json: true, batch: 1).text == written(countdowns, json: true).text)
    }

    @Test func anEmptyJSONListingIsAnEmptyArray() throws {
        let (text, listed) = written([], json: true)
        #expect(text == "[]\n")
        #expect(listed)
    }

    @Test func anEmptyTableWritesNothingAndSaysThereWasNothingToList() {
        let (text, listed) = written([], json: false)
        #expect(text.isEmpty)
        #expect(!listed)
    }

    @Test func theTableShowsEveryIdEscapedAndNoCharacterATerminalWouldActOn() {
        let text = written(hostileIDs.map { record($0) }, json: false).text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == hostileIDs.count + 1)
        for (line, id) in zip(lines.dropFirst(), hostileIDs) {
            #expect(line.hasPrefix(VisibleText.escaped(id) + " "))
        }
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
    }

    @Test func theTableLinesItsColumnsUpByDisplayWidthEvenAfterATenThousandCharacterId() {
        let countdowns = ["名前", "a", String(repeating: "x", count: 10_000)].map { record($0) }
        let text = written(countdowns, json: false).text
        let lines = text.split(separator: "\n").map(String.init)
        // Every row's state starts in the same column: the widest id's width and two blanks.
        for line in lines {
            let state = line.range(of: "  running") ?? line.range(of: "  STATE")
            let before = String(line[..<state!.lowerBound])
            #expect(ListingWriter.width(before) == 10_000)
        }
    }

    @Test func theTableHasATitleColumnOnlyWhenACountdownHasATitle() {
        let untitled = written([record("a")], json: false).text
        let titled = written([record("a"), record("b", title: "Tea\u{1B}]0;x")], json: false).text
        #expect(!untitled.contains("TITLE"))
        #expect(titled.split(separator: "\n")[0].hasSuffix("TITLE"))
        #expect(titled.contains(VisibleText.escaped("Tea\u{1B}]0;x")))
    }

    @Test func aPausedCountdownHasNoDeadlineInTheTable() {
        let text = written([record("p", state: .paused)], json: false).text
        let row = text.split(separator: "\n")[1]
        #expect(row.hasSuffix("  -"))
        #expect(row.contains("paused"))
    }

    @Test func onceAWriteFailsNothingMoreIsWrittenAndAddSaysToStopReading() {
        var writes = 0
        let writer = ListingWriter(json: true) { _ in writes += 1; return false }
        // A batch large enough to fill the first piece: that write fails.
        let many = (0..<2000).map { record(String(format: "id%05d", $0)) }
        #expect(!writer.add(many, at: now))
        #expect(!writer.add([record("late")], at: now))
        writer.finish()
        #expect(writes == 1)
    }
}
