import CountdownCore
import Testing

@Suite("Seconds from scripts become whole nanoseconds")
struct TimeConversionTests {
    @Test("decimal seconds round to the nearest nanosecond, exactly")
    func rounding() {
        #expect(Time.nanoseconds(fromSeconds: 0.3) == 300_000_000)
        #expect(Time.nanoseconds(fromSeconds: 0.1) == 100_000_000)
        #expect(Time.nanoseconds(fromSeconds: 1.5) == 1_500_000_000)
        #expect(Time.nanoseconds(fromSeconds: 90061.5) == 90_061_500_000_000)
        #expect(Time.nanoseconds(fromSeconds: -2.25) == -2_250_000_000)
        #expect(Time.nanoseconds(fromSeconds: 0) == 0)
    }

    @Test("NaN, infinities and durations beyond the maximum are rejected")
    func rejects() {
        #expect(Time.nanoseconds(fromSeconds: .nan) == nil)
        #expect(Time.nanoseconds(fromSeconds: .infinity) == nil)
        #expect(Time.nanoseconds(fromSeconds: -.infinity) == nil)
        #expect(Time.nanoseconds(fromSeconds: 1e30) == nil)
        #expect(Time.nanoseconds(fromSeconds: Time.seconds(Time.maximumDuration) * 2) == nil)
        #expect(Time.nanoseconds(fromSeconds: 50 * 365 * 86_400) != nil)
    }

    @Test("seconds(_:) converts back")
    func back() {
        #expect(Time.seconds(1_500_000_000) == 1.5)
        #expect(Time.seconds(-250_000_000) == -0.25)
    }

    @Test("the maximum duration leaves room for deadline arithmetic")
    func headroom() {
        let (sum, overflow) = Time.maximumDuration.multipliedReportingOverflow(by: 3)
        #expect(!overflow)
        #expect(sum > 0)
    }
}
