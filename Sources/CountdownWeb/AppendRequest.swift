import FoundationEssentials

/// The body of `POST /api/countdowns/ID/append`: `{"duration": "5m"}` (or -1m,
/// or a number of seconds), read as strictly as a start request.
struct AppendRequest {
    var duration: String

    init(json body: [UInt8]) throws(StartRequest.Refusal) {
        let fields: [String: StartRequest.DurationValue]
        do {
            fields = try JSONDecoder().decode([String: StartRequest.DurationValue].self, from: Data(body))
        } catch {
            throw StartRequest.Refusal(message: "the body must be a JSON object such as {\"duration\": \"5m\"} (negative takes time off: \"-1m\")")
        }
        if let unknown = fields.keys.filter({ $0 != "duration" }).sorted().first {
            throw StartRequest.Refusal(message: "unknown field \"\(String(unknown.prefix(60)))\" (known: duration)")
        }
        guard let duration = fields["duration"] else { throw StartRequest.Refusal(message: "\"duration\" is missing") }
        self.duration = duration.text
    }
}
