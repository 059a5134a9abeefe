import CountdownCore
@testable import CountdownWeb
import Testing

@Suite("What the pages are told: the change tracker, on a virtual clock")
struct CountdownChangeTrackerTests {
    let now = StoreInstant(boot: 5_000 * Time.nanosecondsPerSecond, wall: 1_800_000_000 * Time.nanosecondsPerSecond, bootID: "b")

    static func advance(_ now: inout StoreInstant, _ seconds: Int64) {
        now.boot += seconds * Time.nanosecondsPerSecond
        now.wall += seconds * Time.nanosecondsPerSecond
    }

    @Test("A first read tells each countdown as new; reading the same again tells nothing")
    func firstReadIsNew() {
        var tracker = CountdownChangeTracker()
        let records = [running("a", seconds: 60, at: now), running("b", seconds: 30, at: now)]
        #expect(tracker.replaceAll(with: records, at: now).map(\.kind) == [.new, .new])
        #expect(tracker.replaceAll(with: records, at: now).isEmpty)
        #expect(tracker.countdowns.map(\.id) == ["a", "b"])
    }

    @Test("Each kind of change is named: append, pause, resume, cancel")
    func kinds() {
        var now = self.now
        func advance(_ seconds: Int64) { Self.advance(&now, seconds) }
        var tracker = CountdownChangeTracker()
        var tea = running("tea", seconds: 60, at: now)
        _ = tracker.update(id: "tea", to: tea, at: now)
        _ = tea.append(30 * Time.nanosecondsPerSecond, at: now)
        #expect(tracker.update(id: "tea", to: tea, at: now)?.kind == .append)
        advance(10)
        _ = tea.pause(at: now)
        #expect(tracker.update(id: "tea", to: tea, at: now)?.kind == .pause)
        _ = tea.append(5 * Time.nanosecondsPerSecond, at: now)
        #expect(tracker.update(id: "tea", to: tea, at: now)?.kind == .append)
        _ = tea.resume(at: now)
        #expect(tracker.update(id: "tea", to: tea, at: now)?.kind == .resume)
        #expect(tracker.update(id: "tea", to: nil, at: now)?.kind == .cancel)
        #expect(tracker.update(id: "tea", to: nil, at: now) == nil)
    }

    @Test("Time alone ends a countdown, or puts an overtime one into overtime, once; the next boundary is the soonest end")
    func timeAlone() {
        var now = self.now
        func advance(_ seconds: Int64) { Self.advance(&now, seconds) }
        var tracker = CountdownChangeTracker()
        _ = tracker.replaceAll(with: [running("egg", seconds: 5, at: now), running("talk", seconds: 8, at: now, overtime: true),
                                      running("long", seconds: 100, at: now)], at: now)
        #expect(tracker.nextBoundary(at: now) == 5 * Time.nanosecondsPerSecond)
        advance(4)
        #expect(tracker.advance(to: now).isEmpty)
        advance(1)
        #expect(tracker.advance(to: now).map { "\($0.kind) \($0.id)" } == ["end egg"])
        #expect(tracker.nextBoundary(at: now) == 3 * Time.nanosecondsPerSecond)
        advance(3)
        #expect(tracker.advance(to: now).map { "\($0.kind) \($0.id)" } == ["overtime talk"])
        #expect(tracker.advance(to: now).isEmpty)
        #expect(tracker.nextBoundary(at: now) == 92 * Time.nanosecondsPerSecond)
    }

    @Test("A countdown that disappears from a whole read is cancelled")
    func disappearing() {
        var tracker = CountdownChangeTracker()
        _ = tracker.replaceAll(with: [running("a", seconds: 60, at: now), running("b", seconds: 60, at: now)], at: now)
        let events = tracker.replaceAll(with: [running("b", seconds: 60, at: now)], at: now)
        #expect(events.map { "\($0.kind) \($0.id)" } == ["cancel a"])
    }

    @Test("Ids that differ only in Unicode normal form are two countdowns")
    func idsAreBytes() {
        var tracker = CountdownChangeTracker()
        let events = tracker.replaceAll(with: [running("caf\u{E9}", seconds: 60, at: now), running("cafe\u{301}", seconds: 60, at: now)], at: now)
        #expect(events.count == 2)
    }
}

@Suite("Request targets: strict percent-decoding")
struct RequestTargetTests {
    @Test("Segments and query parameters are decoded; %2F stays inside its segment")
    func decoding() throws {
        let target = try #require(RequestTarget("/c/a%2Fb%20%E2%80%AE?format=%7Bmm%7D:%7Bss%7D&done=Time+up&bg"))
        #expect(target.segments == ["c", "a/b \u{202E}"])
        #expect(target.query == ["format": "{mm}:{ss}", "done": "Time up", "bg": ""])
        #expect(RequestTarget("/")?.segments == [])
        #expect(RequestTarget("/api/countdowns/")?.segments == ["api", "countdowns"])
    }

    @Test("A malformed escape or bytes that are not UTF-8 make the target unreadable")
    func malformed() {
        #expect(RequestTarget("/c/%") == nil)
        #expect(RequestTarget("/c/%4") == nil)
        #expect(RequestTarget("/c/%zz") == nil)
        #expect(RequestTarget("/c/%C3") == nil)
        #expect(RequestTarget("/c/x?a=%ff") == nil)
        #expect(RequestTarget("http://evil.example/") == nil)
    }
}

@Suite("The body of a start request")
struct StartRequestTests {
    func read(_ json: String) -> Result<StartRequest, StartRequest.Refusal> {
        Result { () throws(StartRequest.Refusal) in try StartRequest(json: Array(json.utf8)) }
    }

    @Test("A duration is a string or a number of seconds; a deadline a string")
    func forms() throws {
        #expect(try read(#"{"id": "t", "duration": "25m"}"#).get().spec == "25m")
        #expect(try read(#"{"id": "t", "duration": 90}"#).get().spec == "90")
        let overtime = try read(#"{"id": "t", "duration": 1.5, "overtime": true}"#).get()
        #expect(overtime.spec == "1.5" && !overtime.isDeadline && overtime.overtime && overtime.every == nil)
        let deadline = try read(#"{"id": "t", "deadline": "20:00", "every": "2s"}"#).get()
        #expect(deadline.spec == "20:00" && deadline.isDeadline && !deadline.overtime && deadline.every == "2s")
    }

    @Test("Each wrong body is refused with a message naming what is wrong")
    func refusals() {
        func message(_ json: String) -> String? {
            if case .failure(let refusal) = read(json) { return refusal.message }
            return nil
        }
        #expect(message(#"{"id": "t", "duration": "1m", "colour": "red"}"#)?.hasPrefix("unknown field \"colour\"") == true)
        #expect(message(#"{"duration": "1m"}"#) == "\"id\" is missing")
        #expect(message(#"{"id": "", "duration": "1m"}"#) == "\"id\" must not be empty")
        #expect(message(#"{"id": 5, "duration": "1m"}"#) == "\"id\" must be a string")
        #expect(message(#"{"id": "t"}"#)?.hasPrefix("give \"duration\"") == true)
        #expect(message(#"{"id": "t", "duration": "1m", "deadline": "20:00"}"#) == "give \"duration\" or \"deadline\", not both")
        #expect(message(#"{"id": "t", "duration": true}"#)?.hasPrefix("\"duration\" must be a duration") == true)
        #expect(message(#"{"id": "t", "duration": "1m", "overtime": "yes"}"#) == "\"overtime\" must be true or false")
        #expect(message("[1]") == "the body must be a JSON object")
        #expect(message("{")?.hasPrefix("the body is not JSON") == true)
    }
}
