import Testing

/// The real binary against real stores and real signals. Serialized as a whole:
/// several of these measure time, and the kill -9 loop keeps both cores busy.
@Suite("Store faults, end to end", .serialized)
enum StoreFaults {}
