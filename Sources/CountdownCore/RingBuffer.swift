/// A growable FIFO queue of plain values in one contiguous buffer.
/// Unused cells hold `filler`, so elements need no Optional wrapper (and no
/// extra bytes per countdown).
struct RingBuffer<Element> {
    private var storage: ContiguousArray<Element> = []
    private var head = 0
    private(set) var count = 0
    private let filler: Element

    init(filler: Element) { self.filler = filler }

    var isEmpty: Bool { count == 0 }

    var first: Element? { count == 0 ? nil : storage[head] }

    mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        var tail = head + count
        if tail >= storage.count { tail -= storage.count }
        storage[tail] = element
        count += 1
    }

    @discardableResult
    mutating func removeFirst() -> Element {
        precondition(count > 0)
        let element = storage[head]
        head += 1
        if head == storage.count { head = 0 }
        count -= 1
        return element
    }

    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }

    private mutating func grow() {
        let newCapacity = max(16, storage.count * 2)
        var next = ContiguousArray<Element>(repeating: filler, count: newCapacity)
        for i in 0..<count {
            var index = head + i
            if index >= storage.count { index -= storage.count }
            next[i] = storage[index]
        }
        storage = next
        head = 0
    }
}
