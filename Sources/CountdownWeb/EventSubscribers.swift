import NIOCore

/// A page's open event stream, as the server writes to it.
protocol EventSubscriber: AnyObject {
    /// Sends one framed event; false when the stream is gone or cannot keep up.
    func send(_ event: ByteBuffer) -> Bool
    /// Ends the stream (a reader too slow to keep up).
    func end()
}

/// The open event streams. Every event is encoded once and the same bytes go to
/// every stream (a ByteBuffer shares its storage). A stream whose reader does not
/// keep up (its socket buffer is full and NIO's high-water mark passed) is ended
/// instead of being buffered without bound, so one slow reader never holds back
/// the others or grows the server; its page reconnects and gets a snapshot.
/// Owned by the server's one thread.
final class EventSubscribers {
    private var subscribers: [ObjectIdentifier: EventSubscriber] = [:]

    var count: Int { subscribers.count }

    func add(_ subscriber: EventSubscriber) { subscribers[ObjectIdentifier(subscriber)] = subscriber }

    func remove(_ subscriber: EventSubscriber) { subscribers[ObjectIdentifier(subscriber)] = nil }

    func broadcast(_ event: ByteBuffer) {
        var lagging: [EventSubscriber] = []
        for subscriber in subscribers.values where !subscriber.send(event) {
            lagging.append(subscriber)
        }
        for subscriber in lagging {
            remove(subscriber)
            subscriber.end()
        }
    }
}
