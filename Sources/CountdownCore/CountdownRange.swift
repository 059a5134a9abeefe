/// The one range of values a countdown can have. Everything `start`, `append`,
/// `at`, the timer and the commands accept lies inside it, both stores read back
/// everything inside it, and refuse (naming the field) everything outside it.
///
/// The bounds keep every sum and difference the scheduler, the stores and the
/// listing make far from overflow: a duration is at most 2^61 ns, an instant at
/// most 2^62 ns from the epoch, so `instant ± duration` and `instant - instant`
/// always fit in 64 bits.
public enum CountdownRange {
    /// The longest duration, remaining time or length: 2^61 - 1 ns, about 73 years.
    public static let longestDuration: Nanoseconds = Int64.max / 4
    /// The latest instant a deadline may be at: 2^62 - 1 ns after the Unix epoch
    /// (2116-02-20T23:53:38Z). Until 2043, now + `longestDuration` is earlier.
    public static let latestInstant: Nanoseconds = Int64.max / 2
    /// The earliest instant a stored deadline or boot-clock reading may be at (1823).
    public static let earliestInstant: Nanoseconds = -latestInstant
    /// The shortest tick interval a countdown may have (`every`, `--every`): a
    /// tenth of a second, the finest the view's clock shows.
    public static let shortestTick: Nanoseconds = Time.nanosecondsPerTenth
    /// The shortest tick interval a store keeps (scripts are held to 0.1 s; this
    /// leaves room for a future shorter one without a schema change).
    public static let shortestEvery: Nanoseconds = 1_000_000

    /// Durations: 0 through `longestDuration`.
    public static let durations: ClosedRange<Nanoseconds> = 0...longestDuration
    /// Instants, on the wall clock or a boot clock.
    public static let instants: ClosedRange<Nanoseconds> = earliestInstant...latestInstant

    /// `longestDuration` in whole seconds.
    public static let longestSeconds: Int64 = longestDuration / Time.nanosecondsPerSecond
    /// The longest duration in years of 365.25 days, rounded: "about 73 years".
    public static let longestInYears = "about \(Int((Double(longestSeconds) / (365.25 * 86_400)).rounded())) years"
    /// How messages name the longest duration.
    public static let longestText = "\(longestSeconds) seconds (\(longestInYears))"
    /// How messages name the latest instant (checked against the bound by a test).
    public static let latestInstantText = "2116-02-20T23:53:38Z"

    /// Checks every field of a record as both stores keep it. The error names the
    /// field by its stored name (the SQLite column), its value and the bound.
    public static func check(_ c: StoredCountdown) throws(StoredValueError) {
        func instant(_ field: String, _ value: Nanoseconds) throws(StoredValueError) {
            guard instants.contains(value) else {
                throw StoredValueError(field: field, value: String(value),
                                       reason: value > 0 ? "later than \(latestInstantText), the latest instant a countdown can have"
                                                         : "earlier than 1823-11-12, the earliest instant a countdown can have")
            }
        }
        func duration(_ field: String, _ value: Nanoseconds, from lowest: Nanoseconds = 0) throws(StoredValueError) {
            guard value >= lowest else {
                throw StoredValueError(field: field, value: String(value), reason: "less than \(lowest) (nanoseconds)")
            }
            guard value <= longestDuration else {
                throw StoredValueError(field: field, value: String(value), reason: "longer than \(longestText), the longest a countdown can be")
            }
        }
        try instant("wall_deadline", c.wallDeadline)
        // An overtime countdown paused past its end keeps the time past it, below zero.
        if let paused = c.pausedRemaining { try duration("paused_remaining", paused, from: c.overtime ? -longestDuration : 0) }
        try duration("every", c.every, from: shortestEvery)
        try duration("total", c.total)
        if let boot = c.bootDeadline { try instant("boot_deadline", boot) }
        try instant("updated_at", c.updatedAt)
        if c.state == .paused, c.pausedRemaining == nil {
            throw StoredValueError(field: "paused_remaining", value: "NULL", reason: "a paused countdown needs its remaining time")
        }
        if let title = c.title, let refusal = CountdownAnnotations.titleRefusal(title) {
            throw StoredValueError(field: "title", value: title, reason: refusal)
        }
        if let refusal = CountdownAnnotations.actionsRefusal(c.actions) {
            throw StoredValueError(field: "actions", value: CountdownAnnotations.encodeActions(c.actions), reason: refusal)
        }
    }
}

/// A stored value that cannot be a countdown's: which field, its value, why.
public struct StoredValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The field's stored name (the SQLite column; the same name for Redis).
    public let field: String
    /// The value as stored, shortened when long.
    public let value: String
    /// Why it cannot be used; names the bound.
    public let reason: String

    public init(field: String, value: String, reason: String) {
        self.field = field
        self.value = value.count > 60 ? String(value.prefix(60)) + "..." : value
        self.reason = reason
    }

    public var description: String { "\(field) = \(value): \(reason)" }
}

/// A stored record that cannot be read back: named, so that it can be removed,
/// while the store's other countdowns stay usable.
public struct UnreadableCountdown: Error, Equatable, Sendable, CustomStringConvertible {
    /// The record's id as text; for an id that is not text (an SQLite blob), how it is shown.
    public let id: String
    /// False when `id` is only a rendering (`cdscript cancel` cannot name it; `clear` removes it).
    public let idIsText: Bool
    /// Where it is stored: the SQLite file or the Redis URL.
    public let location: String
    /// What is wrong, such as `column total = -5: less than 0 (nanoseconds)`.
    public let problem: String

    public init(id: String, idIsText: Bool = true, location: String, problem: String) {
        self.id = id
        self.idIsText = idIsText
        self.location = location
        self.problem = problem
    }

    /// The id as messages show it: control characters escaped, long ones cut.
    public var shownID: String {
        let escaped = VisibleText.escaped(id)
        let cut = escaped.count > 80 ? String(escaped.prefix(80)) + "..." : escaped
        return idIsText ? "'\(cut)'" : cut
    }

    /// How to remove it from a shell.
    public var removal: String {
        guard idIsText, !id.isEmpty, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return "`cdscript clear` removes it"
        }
        let quoted = "'" + id.replacingAll("'", with: "'\\''") + "'"
        return "`cdscript cancel \(quoted)` removes it, as does `cdscript clear`"
    }

    public var description: String {
        "the countdown \(shownID) in \(location) cannot be read (\(problem)); it was left as it is and the other countdowns stay usable: \(removal)"
    }
}

/// What a store holds: the countdowns it can read, ordered by id, and the records it cannot.
public struct StoredCountdownListing: Equatable, Sendable {
    public var countdowns: [StoredCountdown]
    public var unreadable: [UnreadableCountdown]

    public init(countdowns: [StoredCountdown], unreadable: [UnreadableCountdown] = []) {
        self.countdowns = countdowns
        self.unreadable = unreadable
    }
}

extension String {
    /// Without Foundation (CountdownCore is pure Swift).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
