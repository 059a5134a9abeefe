import CountdownCore

extension MainLoop {
    /// Polls a store's change feed in this loop's one `poll`, beside the timer and
    /// the signals: `apply` runs on the loop's thread with what changed, whenever a
    /// feed descriptor is readable. The feed's descriptors are read again after
    /// each wake-up, so one that reconnects (new descriptors) stays watched.
    public func follow(_ feed: CountdownChangeFeed, apply: @escaping (CountdownChanges) -> Void) {
        let registration = FeedRegistration(feed: feed, loop: self, apply: apply)
        registration.register()
    }
}

/// The descriptors of one feed currently registered with a loop.
private final class FeedRegistration {
    let feed: CountdownChangeFeed
    unowned let loop: MainLoop
    let apply: (CountdownChanges) -> Void
    var registered: [Int32] = []

    init(feed: CountdownChangeFeed, loop: MainLoop, apply: @escaping (CountdownChanges) -> Void) {
        self.feed = feed
        self.loop = loop
        self.apply = apply
    }

    func register() {
        for fd in registered { loop.unwatch(fd) }
        registered = feed.descriptors
        // The loop keeps the handlers, and with them this registration.
        for fd in registered { loop.watch(fd) { [self] in wake() } }
    }

    func wake() {
        apply(feed.drain())
        if feed.descriptors != registered { register() }
    }
}
