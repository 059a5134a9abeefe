/// A growable FIFO queue of plain values in one contiguous buffer.
///
/// A noncopyable struct over manually managed memory: it lives inline in its
/// owner, so appending and removing are a few instructions, with no reference
/// counting, uniqueness checks or Optional wrappers (this is the queue every tick
/// passes through).
struct RingBuffer<Element: BitwiseCopyable>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private var head = 0
    private(set) var count = 0

    init(capacity: Int = 16) {
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    var capacityBytes: Int { capacity * MemoryLayout<Element>.stride }

    var first: Element? { count == 0 ? nil : storage[head] }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        var tail = head + count
        if tail >= capacity { tail -= capacity }
        storage[tail] = element
        count += 1
    }

    @inline(__always)
    @discardableResult
    mutating func removeFirst() -> Element {
        precondition(count > 0)
        let element = storage[head]
        head += 1
        if head == capacity { head = 0 }
        count -= 1
        return element
    }

    /// `removeFirst()` and `append(element)` in one step, for a queue whose head
    /// goes straight back to its tail: the count stays, so nothing can grow.
    @inline(__always)
    mutating func rotate(appending element: Element) {
        precondition(count > 0)
        var tail = head &+ count
        if tail >= capacity { tail &-= capacity }
        // When full, the tail is the head itself: the element taken out makes the room.
        storage[tail] = element
        head &+= 1
        if head == capacity { head = 0 }
    }

    /// Calls `body` with each element, head first.
    func forEach(_ body: (Element) -> Void) {
        for i in 0..<count {
            var index = head + i
            if index >= capacity { index -= capacity }
            body(storage[index])
        }
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let next = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        for i in 0..<count {
            var index = head + i
            if index >= capacity { index -= capacity }
            next[i] = storage[index]
        }
        storage.deallocate()
        storage = next
        capacity = newCapacity
        head = 0
    }
}
