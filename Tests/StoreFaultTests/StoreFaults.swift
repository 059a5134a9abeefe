import Testing

/// The real binary against real stores and real signals. Serialized as a whole:
/// several of these measure time, and the kill -9 loop keeps both cores busy.
@Suite("Store faults, end to end", .serialized)
enum StoreFaults {}

/// The same against real redis-server and redis-sentinel processes: serialized
/// among themselves, beside `StoreFaults` (once the other suites are done, one
/// serialized group alone left the second core idle for most of a CI run).
@Suite("Redis store faults, end to end", .serialized)
enum RedisStoreFaults {}
