/// One id's outcome in a read of several (`cdscript status ID...`): the record
/// stored under it (nil when none is), or why it could not be read.
///
/// `Result<StoredCountdown?, any Error>` says the same, but a generic type whose
/// parameter must conform to a protocol is made at run time by its first user,
/// who checks the conformance by scanning every conformance in the binary: about
/// 0.24 million instructions of the 3 million a `status` call took. This type is
/// not generic and costs nothing to make.
public enum LoadedCountdown {
    case success(StoredCountdown?)
    case failure(any Error)

    /// The record, or the error thrown.
    public func get() throws -> StoredCountdown? {
        switch self {
        case .success(let record): return record
        case .failure(let error): throw error
        }
    }

    /// The same outcome from a `Result` (what `loadEach` gives).
    public init(_ result: Result<StoredCountdown?, any Error>) {
        switch result {
        case .success(let record): self = .success(record)
        case .failure(let error): self = .failure(error)
        }
    }
}
