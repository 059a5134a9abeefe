import CountdownCore
import Testing
@testable import StoreViews

private let s = Time.nanosecondsPerSecond
private let wall: Nanoseconds = 1_800_000_000 * s

@Suite struct StartSpecTests {
    @Test func aDurationIsReadAsTheTimerReadsIt() throws {
        #expect(try StartSpec.read("1h30m", wallNow: wall) == .duration(5400 * s))
        #expect(try StartSpec.read("90", wallNow: wall) == .duration(90 * s))
    }

    @Test func aNegativeOrZeroDurationIsRefusedWithAHintAboutAppend() {
        #expect(throws: StartSpec.Refusal.self) { try StartSpec.read("0", wallNow: wall) }
        do {
            _ = try StartSpec.read("-30", wallNow: wall)
            Issue.record("-30 was read")
        } catch {
            #expect(error.description.contains("cdscript append ID -30"))
        }
    }

    @Test func aDateInThePastIsRefused() {
        #expect(throws: StartSpec.Refusal(description: "2020-01-01T00:00:00Z is in the past")) {
            try StartSpec.read("2020-01-01T00:00:00Z", wallNow: wall)
        }
    }

    @Test func aDurationLongerThanACountdownCanBeIsRefused() {
        #expect(throws: StartSpec.Refusal.self) { try StartSpec.read("1000000d", wallNow: wall) }
    }
}
