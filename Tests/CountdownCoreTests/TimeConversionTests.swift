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

    @Test("rounding by hand gives what libm's round gives, halves and edges included")
    func sameAsRound() {
        func reference(_ seconds: Double) -> Nanoseconds? {
            guard seconds.isFinite else { return nil }
            let scaled = (seconds * 1e9).rounded()
            guard abs(scaled) <= Double(Time.maximumDuration) else { return nil }
            return Nanoseconds(scaled)
        }
        var values: [Double] = [
            0.5e-9, -0.5e-9, 1.5e-9, -1.5e-9, 2.5e-9, 0.49999999999999994e-9, 0.5000000000000001e-9,
            0x1p52 / 1e9, 0x1p53 / 1e9, (0x1p52 + 0.5) / 1e9, 0x1p61 / 1e9, -0x1p61 / 1e9, 0x1p62 / 1e9,
            Time.seconds(Time.maximumDuration), -Time.seconds(Time.maximumDuration), .leastNonzeroMagnitude, -0.0,
        ]
        // Every binary exponent a duration can have, with scattered fractions and signs.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let exponent = Int(state >> 57) % 72 - 40         // 2^-40 s ... 2^31 s
            let fraction = Double(state >> 11 & 0xF_FFFF) / Double(0x10_0000)
            let seconds = (1 + fraction) * Double(sign: .plus, exponent: exponent, significand: 1)
            values.append(state & 1 == 0 ? seconds : -seconds)
            // A value whose nanoseconds end in exactly one half.
            values.append((Double(state >> 40) + 0.5) / 1e9)
        }
        for seconds in values {
            #expect(Time.nanoseconds(fromSeconds: seconds) == reference(seconds), "\(seconds)")
        }
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
