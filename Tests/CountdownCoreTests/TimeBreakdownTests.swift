import CountdownCore
import Testing

@Suite("TimeBreakdown splits a duration into truncated clock units")
struct TimeBreakdownTests {
    @Test("1 day, 1 hour, 1 minute, 1.5 seconds")
    func allUnits() {
        let b = TimeBreakdown(s(90061.5))
        #expect(b.days == 1)
        #expect(b.hours == 1)
        #expect(b.minutes == 1)
        #expect(b.seconds == 1)
        #expect(b.tenths == 5)
        #expect(b.totalHours == 25)
        #expect(b.totalMinutes == 1501)
        #expect(b.totalSeconds == 90061)
    }

    @Test("every unit is truncated: 1.96 s is 1 s and 9 tenths")
    func truncation() {
        let b = TimeBreakdown(s(1.96))
        #expect(b.seconds == 1)
        #expect(b.tenths == 9)
        #expect(TimeBreakdown(s(59.999_999_999)).seconds == 59)
        #expect(TimeBreakdown(s(59.999_999_999)).minutes == 0)
        #expect(TimeBreakdown(s(0.099_999_999)).tenths == 0)
    }

    @Test("exact tick values never show one less: 5 s is 5 s, 0.3 s is 3 tenths")
    func exactValues() {
        #expect(TimeBreakdown(s(5)).seconds == 5)
        #expect(TimeBreakdown(s(0.3)).tenths == 3)
        #expect(TimeBreakdown(s(0.3)).seconds == 0)
        #expect(TimeBreakdown(s(3600)).hours == 1)
        #expect(TimeBreakdown(s(3600)).minutes == 0)
    }

    @Test("units roll over at their bounds")
    func rollover() {
        let b = TimeBreakdown(s(86_399.9))
        #expect(b == TimeBreakdown(s(86_399.95)))
        #expect((b.days, b.hours, b.minutes, b.seconds, b.tenths) == (0, 23, 59, 59, 9))
        let c = TimeBreakdown(s(86_400))
        #expect((c.days, c.hours, c.minutes, c.seconds, c.tenths) == (1, 0, 0, 0, 0))
        #expect(c.totalHours == 24)
    }

    @Test("zero and negative durations break down to all zeros")
    func negativeIsZero() {
        let zero = TimeBreakdown(0)
        #expect(TimeBreakdown(-1) == zero)
        #expect(TimeBreakdown(s(-3725.5)) == zero)
        #expect((zero.days, zero.hours, zero.minutes, zero.seconds, zero.tenths, zero.totalSeconds) == (0, 0, 0, 0, 0, 0))
    }

    @Test("the longest accepted duration breaks down without overflow")
    func longest() {
        let b = TimeBreakdown(Time.maximumDuration)
        #expect(b.totalSeconds == Time.maximumDuration / Time.nanosecondsPerSecond)
        #expect(b.days == b.totalSeconds / 86_400)
        #expect((0...23).contains(b.hours))
    }
}
