#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for a body that runs until it returns, through pthreads
/// (Foundation's `Thread` would link Foundation, and with it ICU's data, into
/// every binary that starts one): the end-action runner's and the reapers of
/// the commands a plugin spawns.
public enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new, detached thread; nil when it started, else why not.
    public static func start(_ body: @escaping @Sendable () -> Void) -> String? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return String(cString: strerror(result))
        }
        pthread_detach(thread)
        return nil
    }
}
