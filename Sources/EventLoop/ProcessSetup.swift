import CLinux

/// What a command sets up in its process before it runs: the heap's pages and
/// the SIGPIPE disposition (CLinux's heap.c and signals.c). Here so that the
/// command line calls Swift, never the C shim.
public enum ProcessSetup {
    /// Transparent huge pages for the heap the process grows from now on (a run's
    /// countdowns then take about a sixth of the page faults; docs/performance.md).
    /// Call it first thing, before the heap holds much. False when the system refused.
    @discardableResult
    public static func preferHugePagesForHeap() -> Bool {
        cdl_heap_prefer_huge_pages() == 0
    }

    /// Catches SIGPIPE with a handler that does nothing: a write into a closed pipe
    /// then fails with EPIPE, and the command ends through its own path (141).
    /// Caught rather than ignored, so that children start with the default.
    public static func catchBrokenPipe() {
        cdl_catch_sigpipe()
    }
}
