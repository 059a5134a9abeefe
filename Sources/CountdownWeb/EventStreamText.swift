import CountdownCore

/// The text of the event stream (`GET /api/events`): Server-Sent Events whose
/// data is JSON, one object per event, with the server's wall clock (`now`,
/// milliseconds since the epoch, UTC) so that a page can measure its offset.
/// Countdowns are written by `CountdownJSON`, in `list --json`'s shape.
enum EventStreamText {
    /// The first event on a connection: every countdown, and the server's clock.
    static func snapshot(_ countdowns: [StoredCountdown], at now: StoreInstant) -> String {
        var json = "{\"event\":\"snapshot\",\"now\":\(milliseconds(now)),\"countdowns\":[\n"
        for (index, c) in countdowns.enumerated() {
            if index > 0 { json += ",\n" }
            CountdownJSON.appendRecord(c, at: now, to: &json)
        }
        json += "\n]}"
        return frame(json)
    }

    /// The heartbeat: an event named `heartbeat` (a page's `onmessage` does not
    /// get it; its own listener does) whose data is the heartbeat interval in
    /// milliseconds. It opens every stream and then comes once per interval
    /// (`ServerConfiguration.heartbeatInterval`), so a page learns from the
    /// server itself how long a silence means a dead connection: one source for
    /// the figure.
    static func heartbeat(interval seconds: Double) -> String {
        "event: heartbeat\ndata: \(Int64((seconds * 1000).rounded()))\n\n"
    }

    /// One change.
    static func event(_ event: CountdownEvent, at now: StoreInstant) -> String {
        var json = "{\"event\":\"\(event.kind.rawValue)\",\"now\":\(milliseconds(now)),\"id\":"
        CountdownJSON.appendString(event.id, to: &json)
        json += ",\"countdown\":"
        if let c = event.countdown {
            json += "\n"
            CountdownJSON.appendRecord(c, at: now, to: &json)
        } else {
            json += "null"
        }
        json += "}"
        return frame(json)
    }

    /// `json` as one SSE message: a `data:` line per line (a reader joins them
    /// with newlines again), then a blank line.
    static func frame(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count + 64)
        for line in json.split(separator: "\n", omittingEmptySubsequences: false) {
            out += "data: "
            out += line
            out += "\n"
        }
        out += "\n"
        return out
    }

    static func milliseconds(_ now: StoreInstant) -> Int64 { now.wall / 1_000_000 }
}
