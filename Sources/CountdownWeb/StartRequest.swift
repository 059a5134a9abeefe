import CountdownCore
import FoundationEssentials

/// The body of `POST /api/countdowns`, read strictly: an unknown field, a
/// missing one or one of the wrong type is refused with a message naming it.
struct StartRequest: Equatable {
    var id: String
    /// The duration or deadline as given, read by the command line's grammar.
    var spec: String
    var isDeadline: Bool
    var every: String?
    var overtime: Bool
    /// Kept with the stored countdown, as `cdscript start --title` and `--action` keep them.
    var title: String?
    var actions: [String]

    static let fields = ["actions", "deadline", "duration", "every", "id", "overtime", "title"]

    /// Why a body cannot be read.
    struct Refusal: Error, Equatable { let message: String }

    init(json body: [UInt8]) throws(Refusal) {
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(body))
        } catch let refusal as Refusal {
            throw refusal
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let name = context.codingPath.first?.stringValue ?? "the body"
            throw Refusal(message: name == "the body" ? "the body must be a JSON object" : Self.typeMessage(name))
        } catch {
            throw Refusal(message: "the body is not JSON: send an object such as {\"id\": \"tea\", \"duration\": \"3m\"}")
        }
        guard let id = fields.id else { throw Refusal(message: "\"id\" is missing") }
        guard !id.isEmpty else { throw Refusal(message: "\"id\" must not be empty") }
        switch (fields.duration, fields.deadline) {
        case (nil, nil): throw Refusal(message: "give \"duration\" (3m, 90) or \"deadline\" (20:00, 2026-12-01T20:00:00Z)")
        case (.some, .some): throw Refusal(message: "give \"duration\" or \"deadline\", not both")
        case (let duration?, nil):
            spec = duration.text
            isDeadline = false
        case (nil, let deadline?):
            spec = deadline
            isDeadline = true
        }
        self.id = id
        every = fields.every?.text
        overtime = fields.overtime ?? false
        title = fields.title
        actions = fields.actions ?? []
        if let title, let refusal = CountdownAnnotations.titleRefusal(title) { throw Refusal(message: "\"title\": \(refusal)") }
        if let refusal = CountdownAnnotations.actionsRefusal(actions) { throw Refusal(message: "\"actions\": \(refusal)") }
        if overtime && !actions.isEmpty { throw Refusal(message: "\"actions\" and \"overtime\": an overtime countdown's end runs no action") }
    }

    static func typeMessage(_ name: String) -> String {
        switch name {
        case "duration", "every": return "\"\(name)\" must be a duration: a string (\"3m\") or a number of seconds"
        case "overtime": return "\"overtime\" must be true or false"
        case "actions": return "\"actions\" must be a list of action names, such as [\"notify\"]"
        default: return "\"\(DurationRangeError.shown(name))\" must be a string"
        }
    }

    /// A duration as JSON may give it: "3m", or 90 (seconds).
    struct DurationValue: Decodable {
        var text: String
        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let text = try? value.decode(String.self) {
                self.text = text
            } else {
                let seconds = try value.decode(Double.self)
                var text = seconds.description
                if text.hasSuffix(".0") { text.removeLast(2) }
                self.text = text
            }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct Fields: Decodable {
        var id: String?
        var duration: DurationValue?
        var deadline: String?
        var every: DurationValue?
        var overtime: Bool?
        var title: String?
        var actions: [String]?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            if let unknown = c.allKeys.map(\.stringValue).filter({ !StartRequest.fields.contains($0) }).sorted().first {
                throw Refusal(message: "unknown field \"\(DurationRangeError.shown(unknown))\" (known: \(StartRequest.fields.joined(separator: ", ")))")
            }
            id = try c.decodeIfPresent(String.self, forKey: Key(stringValue: "id"))
            duration = try c.decodeIfPresent(DurationValue.self, forKey: Key(stringValue: "duration"))
            deadline = try c.decodeIfPresent(String.self, forKey: Key(stringValue: "deadline"))
            every = try c.decodeIfPresent(DurationValue.self, forKey: Key(stringValue: "every"))
            overtime = try c.decodeIfPresent(Bool.self, forKey: Key(stringValue: "overtime"))
            title = try c.decodeIfPresent(String.self, forKey: Key(stringValue: "title"))
            actions = try c.decodeIfPresent([String].self, forKey: Key(stringValue: "actions"))
        }
    }
}
