import StoredEndActions
import Testing

@Suite("What an action name runs is configured where serve runs")
struct ActionCatalogTests {
    @Test("the built-in names are notify, bell and log")
    func builtIns() {
        let catalog = ActionCatalog()
        #expect(catalog["notify"] == .notify && catalog["bell"] == .bell && catalog["log"] == .log)
        #expect(catalog["anything"] == nil)
    }

    @Test("the file has one 'name = command line' a line; blank lines and # comments are skipped; the command keeps its own = and #")
    func fileLines() throws {
        var catalog = ActionCatalog()
        try catalog.read(file: """
            # end actions
              tea = notify-send "Tea" && echo "a=b # not a comment" >> ~/tea.log

            deploy.prod=./deploy --token=$CDSCRIPT_TOKEN\r
            log = echo replaced
            """, origin: "actions.conf")
        #expect(catalog["tea"] == .command("notify-send \"Tea\" && echo \"a=b # not a comment\" >> ~/tea.log"))
        #expect(catalog["deploy.prod"] == .command("./deploy --token=$CDSCRIPT_TOKEN"))
        #expect(catalog["log"] == .command("echo replaced"), "a definition replaces a built-in of the same name")
    }

    @Test("a line that is no definition, a bad name or an empty command is refused, naming the file and line")
    func badLines() {
        let cases = [("just words", "actions.conf:2: expected NAME = COMMAND"), ("rm -rf = /", "actions.conf:2: an action name is"),
                     ("empty =", "actions.conf:2: the action 'empty' has no command"), ("=x", "actions.conf:2: an action name is")]
        for (line, message) in cases {
            var catalog = ActionCatalog()
            #expect { try catalog.read(file: "# first\n" + line, origin: "actions.conf") } throws: { error in
                "\(error)".hasPrefix(message)
            }
        }
    }

    @Test("--action definitions come after the file's and replace them")
    func commandLineWins() throws {
        var catalog = ActionCatalog()
        try catalog.read(file: "a = one", origin: "f")
        try catalog.define("a=two", origin: "--action")
        #expect(catalog["a"] == .command("two"))
    }

    @Test("a reload reports what was added, removed and changed, and nothing when nothing changed")
    func changes() throws {
        var old = ActionCatalog()
        try old.read(file: "a = one\nb = two", origin: "f")
        var new = ActionCatalog()
        try new.read(file: "a = uno\nc = three", origin: "f")
        #expect(new.changes(from: old) == ["changed a: command uno (was command one)", "removed b", "added c: command three"])
        #expect(old.changes(from: old).isEmpty)
    }
}
