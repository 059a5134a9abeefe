/// How many replicas must hold a change before a command reports it done
/// (Redis's `WAIT numreplicas timeout` after each change), and how long to wait
/// for them. Each setting comes from the URL's query (`?wait=1&wait-timeout=500ms`),
/// a `--redis-wait*` option or a `CDSCRIPT_REDIS_WAIT*` variable; nil means "not
/// said here", so that sources can be layered (`over`), as `RedisTLSSettings` are.
///
/// Redis replicates asynchronously: without a wait, a change the primary
/// acknowledged and had not yet sent on when it died is lost with it. With one,
/// a change reported done is on that many replicas too (in their memory, not
/// necessarily on their disks), so a failover to one of them keeps it.
public struct RedisReplicaWait: Equatable, Sendable {
    /// Replicas that must acknowledge a change; 0 or nil: none (no `WAIT`).
    public var replicas: Int?
    /// The longest a change waits for them, in milliseconds; never 0 (which
    /// `WAIT` reads as "for ever").
    public var timeoutMilliseconds: Int?

    /// The wait when only the number of replicas is given.
    public static let defaultTimeoutMilliseconds = 1_000

    public init(replicas: Int? = nil, timeoutMilliseconds: Int? = nil) {
        self.replicas = replicas
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// True when nothing is said.
    public var isEmpty: Bool { self == RedisReplicaWait() }

    /// Each setting given here, else the one of `fallback`.
    public func over(_ fallback: RedisReplicaWait) -> RedisReplicaWait {
        RedisReplicaWait(replicas: replicas ?? fallback.replicas,
                         timeoutMilliseconds: timeoutMilliseconds ?? fallback.timeoutMilliseconds)
    }

    /// The replicas each change waits for (0: it waits for none).
    public var replicasToWaitFor: Int { replicas ?? 0 }
    /// How long a change waits for them.
    public var effectiveTimeoutMilliseconds: Int { timeoutMilliseconds ?? Self.defaultTimeoutMilliseconds }

    /// A number of replicas: a whole number from 0.
    public static func replicas(_ text: String) -> Int? {
        guard let n = Int(text), n >= 0, n <= 1_000 else { return nil }
        return n
    }

    /// A timeout: milliseconds (`500`, `500ms`) or seconds (`2s`, `1.5s`), more
    /// than 0 and at most an hour.
    public static func timeout(_ text: String) -> Int? {
        var number = Substring(text)
        var scale = 1.0
        if number.hasSuffix("ms") {
            number = number.dropLast(2)
        } else if number.hasSuffix("s") {
            number = number.dropLast()
            scale = 1_000
        }
        guard let value = Double(number), value.isFinite, value > 0 else { return nil }
        let milliseconds = (value * scale).rounded(.up)
        guard milliseconds >= 1, milliseconds <= 3_600_000 else { return nil }
        return Int(milliseconds)
    }

    /// What a value must look like, for messages.
    static let replicasForm = "a whole number of replicas (0 waits for none)"
    static let timeoutForm = "a time above 0 and at most 1 hour: 500ms, 2s or milliseconds (500)"

    /// `CDSCRIPT_REDIS_WAIT` and `CDSCRIPT_REDIS_WAIT_TIMEOUT`, read through
    /// `lookup` (the environment). A value that does not read is refused, naming
    /// the variable: a typo never weakens what was asked for.
    public static func fromEnvironment(_ lookup: (String) -> String?) throws(RedisURL.Invalid) -> RedisReplicaWait {
        func value(_ name: String) -> String? { lookup(name).flatMap { $0.isEmpty ? nil : $0 } }
        var wait = RedisReplicaWait()
        if let text = value("CDSCRIPT_REDIS_WAIT") {
            guard let n = replicas(text) else { throw RedisURL.Invalid(description: "CDSCRIPT_REDIS_WAIT=\(text): expected \(replicasForm)") }
            wait.replicas = n
        }
        if let text = value("CDSCRIPT_REDIS_WAIT_TIMEOUT") {
            guard let ms = timeout(text) else { throw RedisURL.Invalid(description: "CDSCRIPT_REDIS_WAIT_TIMEOUT=\(text): expected \(timeoutForm)") }
            wait.timeoutMilliseconds = ms
        }
        return wait
    }
}
