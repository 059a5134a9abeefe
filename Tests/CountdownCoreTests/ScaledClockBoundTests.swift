import CountdownCore
import Testing

@Suite("ScaledClock: every speed it accepts has an exact, bounded inverse")
struct ScaledClockBoundTests {
    @Test("baseInstant is the earliest base instant at which the scaled clock has reached the instant",
          arguments: [0.001, 0.7, 1, 60, 12345.678, 500_000])
    func exactInverse(speed: Double) throws {
        let base = VirtualClock(boot: 5_000_000_000_000, wall: 0)
        let clock = try ScaledClock(base: base, speed: speed)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let instant = clock.origin + Int64.random(in: 1...(Int64(1) << 50), using: &rng)
            let real = clock.baseInstant(instant)
            #expect(clock.scaled(real) >= instant, "speed \(speed), instant \(instant)")
            #expect(real == clock.origin || clock.scaled(real - 1) < instant, "speed \(speed): not the earliest")
        }
    }

    @Test("an instant past the clock's end maps to 'never' at once (it used to spin forever)")
    func unreachable() throws {
        let clock = try ScaledClock(base: VirtualClock(boot: 1_000_000_000, wall: 0), speed: 600_000)
        #expect(clock.baseInstant(Time.maximumDuration) <= Time.maximumDuration)
        #expect(clock.baseInstant(Int64.max - 1) == Time.maximumDuration)
    }

    @Test("a speed whose scaled time would end within the horizon is refused, naming the bound")
    func refused() {
        for speed in [1e9, 1e13, 1e300] {
            do {
                _ = try ScaledClock(base: VirtualClock(boot: 1_000_000_000, wall: 0), speed: speed)
                Issue.record("speed \(speed) accepted")
            } catch {
                #expect(error.maximum != nil)
                #expect(error.description.contains("at most"), "\(error)")
            }
        }
    }
}
