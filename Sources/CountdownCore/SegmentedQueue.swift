/// A FIFO queue of plain values in fixed segments of 16 KiB that never move.
///
/// The tick queue's ordered runs hold a countdown's first tick from its start
/// until that tick comes due, so a burst of starts queues one entry per countdown
/// in a row. A `RingBuffer` that doubles copies every entry each time it grows and
/// touches about twice the memory it ends with (page faults cost microseconds
/// each on a VM); segments are only added, and a drained one is kept as a spare
/// or freed. Noncopyable over manually managed memory, like `RingBuffer`.
struct SegmentedQueue<Element: BitwiseCopyable>: ~Copyable {
    static var segmentCapacity: Int { Swift.max(1, 16_384 / MemoryLayout<Element>.stride) }

    /// The segments in order; the first holds the head, the last the tail.
    private var segments = RingBuffer<UnsafeMutablePointer<Element>>(capacity: 4)
    /// The last segment (the one `append` writes to), when there is one.
    private var tailSegment: UnsafeMutablePointer<Element>?
    /// Index of the head in the first segment.
    private var head = 0
    /// Elements written to the last segment.
    private var tailCount = 0
    /// A drained segment kept for the next one needed: a queue that empties and
    /// fills again around a segment boundary allocates nothing.
    private var spare: UnsafeMutablePointer<Element>?
    private(set) var count = 0

    init() {}

    deinit {
        segments.forEach { $0.deallocate() }
        spare?.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// Bytes allocated: the segments (the spare included) and the list of them.
    var capacityBytes: Int {
        (segments.count + (spare == nil ? 0 : 1)) * Self.segmentCapacity * MemoryLayout<Element>.stride
            + segments.capacityBytes
    }

    var first: Element? { count == 0 ? nil : segments.first.unsafelyUnwrapped[head] }

    @inline(__always)
    mutating func append(_ element: Element) {
        if tailSegment == nil || tailCount == Self.segmentCapacity { addSegment() }
        tailSegment.unsafelyUnwrapped[tailCount] = element
        tailCount &+= 1
        count &+= 1
    }

    @inline(__always)
    @discardableResult
    mutating func removeFirst() -> Element {
        precondition(count > 0)
        let element = segments.first.unsafelyUnwrapped[head]
        head &+= 1
        count &-= 1
        if count == 0 {
            // Empty: the one segment left starts over from its beginning.
            head = 0
            tailCount = 0
        } else if head == Self.segmentCapacity {
            // The first segment is drained, and the rest lie in the next ones.
            retire(segments.removeFirst())
            head = 0
        }
        return element
    }

    /// Empties the queue, keeping one segment and the spare.
    mutating func removeAll() {
        while segments.count > 1 { retire(segments.removeFirst()) }
        head = 0
        tailCount = 0
        count = 0
    }

    private mutating func addSegment() {
        let segment = spare ?? UnsafeMutablePointer<Element>.allocate(capacity: Self.segmentCapacity)
        spare = nil
        segments.append(segment)
        tailSegment = segment
        tailCount = 0
    }

    private mutating func retire(_ segment: UnsafeMutablePointer<Element>) {
        if spare == nil { spare = segment } else { segment.deallocate() }
    }
}
