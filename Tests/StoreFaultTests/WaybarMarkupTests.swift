import Foundation
import Testing

extension StoreFaults {
    /// waybar reads a custom module's `text` and `tooltip` as Pango markup: checked
    /// with Pango's own parser, not with a reading of its rules.
    @Suite("watch --bar waybar writes markup that Pango reads back as the ids' text", .serialized)
    struct WaybarMarkupTests {
        @Test("Pango parses waybar's text and tooltip for hostile ids as valid, unstyled markup showing the ids as list prints them",
              .enabled("needs gcc and libpango1.0-dev (scripts/setup installs both)") { PangoMarkup.installed })
        func pangoReadsText() throws {
            try #require(PangoMarkup.helper.path != nil, "\(PangoMarkup.helper.why)")
            // The helper tells the three outcomes apart, or it would prove nothing.
            #expect(try PangoMarkup.parse("R&D sync") != .text("R&D sync"), "a bare & is invalid markup")
            #expect(try PangoMarkup.parse(#"<span foreground="red">x</span>"#) == .styled("x"))
            #expect(try PangoMarkup.parse("R&amp;D &lt;b&gt;") == .text("R&D <b>"))

            let dir = Scratch.directory("waybar-pango")
            try HostileIDs.seed(["--state-dir", dir])
            let watch = try LiveProcess(["watch", "--bar", "waybar", "--format", "{id}", "--separator", "|", "--state-dir", dir] + HostileIDs.all)
            defer { watch.signal(SIGKILL); watch.wait() }
            let line = try #require(watch.waitForLine { _ in true }?.text, "\(watch.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let text = try #require(object["text"] as? String)
            let tooltip = try #require(object["tooltip"] as? String)
            #expect(try PangoMarkup.parse(text) == .text(HostileBarTextTests.expected), "\(text.prefix(400).debugDescription)")
            let tips = HostileIDs.shown.indices.map { "\(HostileIDs.shown[$0]): paused, \(HostileIDs.left($0)) left" }
            #expect(try PangoMarkup.parse(tooltip) == .text(tips.joined(separator: "\n")), "\(tooltip.prefix(400).debugDescription)")
        }
    }
}
