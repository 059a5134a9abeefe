import CountdownCore

/// The Redis server's clock as seen from this process: an offset from the local
/// boot clock, measured with `TIME` and corrected for the round trip (the reply
/// is taken to stand for the middle of it; the best of a few samples is kept).
/// Between measurements, time runs on the local boot clock, so a wall clock set
/// on this machine (or one that was wrong all along) changes nothing.
final class ServerClock {
    let local: TimeSource
    /// Server time minus local boot time, once measured.
    private(set) var offset: Nanoseconds?
    /// The round trip of the sample `offset` came from.
    private(set) var roundTrip: Nanoseconds = 0
    private(set) var measuredAt: Nanoseconds = 0
    /// How old a measurement may be before an operation measures again.
    var maximumAge: Nanoseconds = 60 * Time.nanosecondsPerSecond

    init(local: TimeSource) { self.local = local }

    /// Measures the offset again over `connection`.
    func measure(_ connection: RedisConnection, samples: Int = 3) throws(RedisError) {
        var best: (offset: Nanoseconds, trip: Nanoseconds)?
        for _ in 0..<samples {
            let before = local.bootNow()
            let reply = try connection.command(["TIME"])
            let after = local.bootNow()
            guard case .array(let parts) = reply, parts.count == 2,
                  let seconds = parts[0].string.flatMap(Int64.init), let micros = parts[1].string.flatMap(Int64.init) else {
                throw RedisError(connectionLost: false, message: "\(connection.url): unexpected reply to TIME: \(reply)")
            }
            let server = seconds * Time.nanosecondsPerSecond + micros * 1000
            let trip = after - before
            let offset = server - (before + trip / 2)
            if best == nil || trip < best!.trip { best = (offset, trip) }
        }
        offset = best!.offset
        roundTrip = best!.trip
        measuredAt = local.bootNow()
    }

    var isStale: Bool { offset == nil || local.bootNow() - measuredAt > maximumAge }

    /// Now on the server's clock.
    func serverNow() -> Nanoseconds { local.bootNow() + (offset ?? 0) }

    /// Server time minus the local wall clock, right now: what turns a local wall
    /// instant into a server one.
    func wallShift() -> Nanoseconds {
        guard let offset else { return 0 }
        let boot = local.bootNow()
        let wall = local.wallNow()
        return boot + offset - wall
    }
}
