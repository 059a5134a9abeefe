#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread that made an object one thread owns: the scheduler, the Lua state
/// (docs/design.md: one thread owns both, no locks on the hot path). Debug builds
/// check it where the object is entered, as swift-nio's `preconditionInEventLoop`
/// checks an event loop's thread; release builds check nothing.
public struct OwnerThread: Sendable {
    private let thread: pthread_t

    /// The calling thread, as the owner.
    public init() {
        thread = pthread_self()
    }

    /// Whether the calling thread is the owner.
    public var isCurrent: Bool {
        pthread_equal(thread, pthread_self()) != 0
    }

    /// Debug builds only: stops the process, naming `what`, when called from a
    /// thread other than the owner.
    @inline(__always)
    public func assertCurrent(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        assert(isCurrent, "\(what()) used from a thread other than the one that made it: one thread owns the scheduler and the Lua state",
               file: file, line: line)
    }
}
