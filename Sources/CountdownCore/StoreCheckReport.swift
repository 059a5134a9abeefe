/// What `cdscript check` found in a store, which it read without changing.
public struct StoreCheckReport: Sendable, Equatable {
    /// One thing that is wrong: damage, or a record cdscript cannot use.
    public struct Problem: Sendable, Equatable {
        /// What it is about: `countdown 'a'`, `end claim 'a'`, `file`, `schema`.
        public let subject: String
        /// The countdown's id, when it is about one (for `--json`).
        public let id: String?
        /// What is wrong, such as `column total = -5: less than 0 (nanoseconds)`.
        public let problem: String

        public init(subject: String, id: String? = nil, problem: String) {
            self.subject = subject
            self.id = id
            self.problem = problem
        }
    }

    /// The SQLite file or the Redis URL (without its password).
    public let location: String
    /// Countdown records read (readable or not).
    public var countdowns = 0
    public var problems: [Problem] = []
    /// What is worth knowing but is not damage (a process that ended without
    /// closing the store, end claims of countdowns no longer stored).
    public var notes: [String] = []

    public init(location: String) {
        self.location = location
    }

    /// True when nothing is wrong.
    public var isWhole: Bool { problems.isEmpty }
}
