import CountdownCore
import CountdownStore
import RedisStore

extension SQLiteSharedStore {
    func clear(at now: StoreInstant) throws -> (finished: [String], unreadable: [UnreadableCountdown]) {
        try store.clear(at: now)
    }
}

extension RedisSharedStore {
    func clear(at now: StoreInstant) throws -> (finished: [String], unreadable: [UnreadableCountdown]) {
        try store.clear(at: now)
    }
}
