import CommandEnding
import CountdownCore
import Testing
@testable import StoreViews

/// What `cdscript status` writes for a store in memory.
private func shown(_ request: StatusRequest, _ store: MemorySharedStore) throws(CommandExit) -> String {
    var text = ""
    try request.show(on: store, template: try! StatusFormat(request.format), write: { text += $0; return true })
    return text
}

@Suite struct StatusRequestTests {
    @Test func withoutIdsTheLineShowsTheUnfinishedCountdownsSoonestEndFirst() throws {
        let store = MemorySharedStore()
        try store.start("later", seconds: 600)
        try store.start("soon", seconds: 60)
        try store.start("done", seconds: 1)
        store.advance(2)
        let line = try shown(StatusRequest(format: "{id} {left}", separator: " | "), store)
        #expect(line == "soon 58 | later 9:58\n", "\(line)")
    }

    @Test func withIdsTheLineShowsThoseInTheOrderGivenAndAnUnknownOneEndsWithExitSeven() throws {
        let store = MemorySharedStore()
        try store.start("a", seconds: 60)
        try store.start("b", seconds: 120)
        #expect(try shown(StatusRequest(format: "{id}", ids: ["b", "a"]), store) == "b  a\n")
        #expect(throws: CommandExit(.unknownCountdown)) { try shown(StatusRequest(format: "{id}", ids: ["a", "nope"]), store) }
    }

    @Test func forTmuxEveryHashIsEscaped() throws {
        let store = MemorySharedStore()
        try store.start("#[fg=red]", seconds: 60)
        #expect(try shown(StatusRequest(format: "{id}", destination: .tmux), store) == "##[fg=red]\n")
    }

    @Test func asJSONTheCountdownsAreAnArrayAsListWritesThem() throws {
        let store = MemorySharedStore()
        try store.start("tea", seconds: 60)
        var listed = ""
        let writer = ListingWriter(json: true) { listed += $0; return true }
        _ = writer.add(try store.memory.list(), at: try store.now())
        writer.finish()
        #expect(try shown(StatusRequest(json: true), store) == listed)
    }

    @Test func nothingRunningIsAnEmptyLine() throws {
        #expect(try shown(StatusRequest(), MemorySharedStore()) == "\n")
    }
}
