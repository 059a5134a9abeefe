import CountdownCore
@testable import CountdownWeb
import Foundation
import LuaHost
import TerminalView
import Testing
import ScriptViewModel

/// examples/sms_code.lua in a host on a virtual clock, its view published to a
/// real server after each step and the server's clicks pressed from the inbox,
/// as `run --serve` wires them on its run loop (one thread owns the script; the
/// server gets frames and gives back keys).
final class ServedScript {
    let clock = VirtualClock()
    let scheduler: Scheduler
    let host: LuaHost
    let view = ViewController(output: .plain { _ in })
    let served: ViewTestServer
    let publisher: ScriptViewPublisher
    var errors: [String] = []

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")

    init(example: String, arguments: [String]) throws {
        scheduler = Scheduler(clock: clock)
        host = LuaHost(scheduler: scheduler)
        host.installView(view)
        served = try ViewTestServer()
        let server = served.server.server
        publisher = ScriptViewPublisher { server.publishView($0) }
        host.reportError = { [unowned self] in self.errors.append($0) }
        if let failure = host.runScript(atPath: Self.examples.appendingPathComponent(example).path, arguments: arguments) {
            throw ViewError(failure.message)
        }
        try pass()
    }

    func stop() { served.stop() }

    /// The end of a pass of the run loop: keys from the page pressed, the view published (and the server caught up).
    func pass() throws {
        for key in served.inbox.drain() where view.model.button(forKey: key) != nil { host.view?.press(key) }
        publisher.update(ScriptViewState(of: view))
        _ = try served.server.server.viewStreamCount()
    }

    func advance(_ seconds: Double) throws {
        scheduler.advance(clock, to: clock.boot + Nanoseconds(seconds * 1e9))
        try pass()
    }

    /// The view as the page would get it now.
    func pageView() throws -> [String: [String: Any]] {
        let json = try #require(try served.server.request("GET", "/api/view").json as? [String: Any])
        let elements = try #require(json["elements"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: elements.map { ($0["id"] as? String ?? "", $0) })
    }
}

@Suite("A click in the page is a key press of the script, on a virtual clock")
struct ScriptViewClickTests {
    @Test("sms_code.lua: the resend button is disabled in the page during the cooldown, enabled at its end, and a click starts the cooldown again")
    func resendByClick() throws {
        let s = try ServedScript(example: "sms_code.lua", arguments: ["5"])
        defer { s.stop() }
        var page = try s.pageView()
        #expect(page["status"]?["text"] as? String == "Resend in 5s")
        #expect(page["resend"]?["enabled"] as? Bool == false)
        #expect(try s.served.press("r").status == 409, "a disabled button cannot be clicked")
        try s.advance(1)
        #expect(try s.pageView()["status"]?["text"] as? String == "Resend in 4s")
        try s.advance(4)
        page = try s.pageView()
        #expect(page["status"]?["text"] as? String == "Didn't get the code?")
        #expect(page["resend"]?["enabled"] as? Bool == true)
        #expect(s.scheduler.activeCount == 0)
        #expect(try s.served.press("r").status == 202)
        // Nothing happens until the script's thread takes the key, at its next pass.
        #expect(try s.pageView()["resend"]?["enabled"] as? Bool == true)
        try s.pass()
        page = try s.pageView()
        #expect(page["resend"]?["enabled"] as? Bool == false)
        #expect(page["status"]?["text"] as? String == "Resend in 5s")
        #expect(s.scheduler.activeCount == 1)
        #expect(s.errors.isEmpty)
        #expect(s.host.vm.top == 0)
    }

    @Test("flash_sale.lua: one frame per tick that changes the digits, none while nothing changes")
    func flashSaleFrames() throws {
        let s = try ServedScript(example: "flash_sale.lua", arguments: [])
        defer { s.stop() }
        let before = s.publisher.sentCount
        try s.advance(0.1)
        #expect(s.publisher.sentCount == before + 1)
        let page = try s.pageView()
        #expect(page["clock"]?["kind"] as? String == "big")
        #expect(page["clock"]?["text"] as? String == "00:00:04.9")
        #expect((page["elapsed"]?["value"] as? Double).map { abs($0 - 0.02) < 1e-9 } == true)
        // Passes with no tick (a key no button binds, say) send nothing.
        for _ in 0..<10 { try s.pass() }
        #expect(s.publisher.sentCount == before + 1)
        try s.advance(4.9)
        let end = try s.pageView()
        #expect(end["heading"]?["text"] as? String == "The sale has ended.")
        #expect((end["heading"]?["style"] as? [String: Any])?["color"] as? String == "red")
        #expect(end["clock"]?["text"] as? String == "00:00:00.0")
        #expect(s.errors.isEmpty)
    }
}
