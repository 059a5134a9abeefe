import CountdownCore
import Testing

/// Issue 49: `countdown.start{ persist = true, title =, actions = }` stores a
/// title and end-action names with the countdown, and every record the host
/// writes for it keeps them.
@Suite("countdown.start stores a title and end-action names with a persistent countdown")
struct StoredAnnotationTests {
    @Test("they are stored at the start and kept by append and pause, which write the record again")
    func storedAndKept() throws {
        let bed = LuaTestbed()
        let store = InMemoryCountdownStore()
        bed.host.store.persistence = store
        bed.mustRun("""
            h = countdown.start{ id = "tea", seconds = 60, persist = true, title = "Green tea | 100%", actions = {"notify", "log"} }
            """)
        let stored = try #require(try store.load(id: "tea"))
        #expect(stored.title == "Green tea | 100%" && stored.actions == ["notify", "log"])
        // Removed elsewhere (`cdscript cancel` is not seen here): the next change stores this view again, with them.
        _ = try store.delete(id: "tea")
        bed.mustRun("h:append(5); h:pause()")
        let again = try #require(try store.load(id: "tea"))
        #expect(again.title == "Green tea | 100%" && again.actions == ["notify", "log"] && again.state == .paused)
        bed.mustRun("countdown.start{ id = \"plain\", seconds = 60, persist = true }")
        let plain = try #require(try store.load(id: "plain"))
        #expect(plain.title == nil && plain.actions.isEmpty)
    }

    @Test("outside the limits, of the wrong type, without persist or with overtime: an error naming the option, nothing stored",
          arguments: [
            ("title = 5", "'title' must be a string, got number"),
            ("title = 'a\\nb'", "'title': a title is one line of text"),
            ("title = string.rep('x', 257)", "'title': a title is at most 256 characters"),
            ("title = '\\255'", "'title' must be UTF-8 text without NUL bytes"),
            ("actions = 'notify'", "'actions' must be a list of action names such as {\"notify\"}, got string"),
            ("actions = {'notify', 5}", "'actions' must be a list of action names, got a number at [2]"),
            ("actions = {'rm -rf /'}", "'actions': an action name is 1 to 64 of"),
            ("actions = {'a', 'a'}", "'actions': the action 'a' is named twice"),
            ("actions = {'a','b','c','d','e','f','g','h','i','j','k','l','m','n','o','p','q'}", "'actions': a countdown names at most 16 actions"),
            ("overtime = true, actions = {'log'}", "'actions' does not go with an overtime countdown"),
          ])
    func refused(option: String, message: String) throws {
        let bed = LuaTestbed()
        let store = InMemoryCountdownStore()
        bed.host.store.persistence = store
        let failure = bed.run("countdown.start{ id = 'x', seconds = 60, persist = true, \(option) }")
        #expect(failure?.message.contains("countdown.start: " + message) == true, "\(failure?.message ?? "no error")")
        #expect(try store.load(id: "x") == nil)
        let unstored = bed.run("countdown.start{ id = 'y', seconds = 60, title = 'T' }")
        #expect(unstored?.message.contains("'title' and 'actions' belong to a stored countdown: give persist = true") == true,
                "\(unstored?.message ?? "no error")")
    }
}
