/// A growable array of plain values kept in pages of 4,096 that never move.
///
/// The scheduler's records live here. A `ContiguousArray` that doubles copies
/// every record each time it grows, and touches twice the memory it ends with;
/// pages are only added. An index reaches its element through one small, hot
/// array of page addresses. Noncopyable over manually managed memory, like
/// `RingBuffer`, so that it lives inline in its owner without reference counting
/// or uniqueness checks. Pages start on a cache line (64 bytes), so that an
/// element of 64 bytes lies in one.
struct PagedArray<Element: BitwiseCopyable>: ~Copyable {
    private static var pageShift: Int { 12 }
    private static var pageSize: Int { 1 << pageShift }
    private var pages: UnsafeMutablePointer<UnsafeMutablePointer<Element>>
    private var pageCapacity = 0
    private var pageCount = 0
    /// New pages are filled with it, so that no element is ever uninitialised.
    private let filler: Element
    private(set) var count = 0

    init(filler: Element) {
        self.filler = filler
        pages = .allocate(capacity: 1)
        pageCapacity = 1
    }

    deinit {
        for i in 0..<pageCount { UnsafeMutableRawPointer(pages[i]).deallocate() }
        pages.deallocate()
    }

    /// Elements the pages allocated so far hold.
    var capacity: Int { pageCount << Self.pageShift }

    /// Bytes allocated: the pages and the table of their addresses.
    var capacityBytes: Int {
        capacity * MemoryLayout<Element>.stride + pageCapacity * MemoryLayout<UnsafeMutablePointer<Element>>.stride
    }

    /// The element at `index`, which must be below `count`.
    subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "PagedArray index out of range")
            return pages[index >> Self.pageShift][index & (Self.pageSize - 1)]
        }
        @inline(__always) _modify {
            precondition(index >= 0 && index < count, "PagedArray index out of range")
            yield &pages[index >> Self.pageShift][index & (Self.pageSize - 1)]
        }
    }

    /// Where element `index` lies in memory (tests check the alignment of pages).
    func address(of index: Int) -> UInt {
        precondition(index >= 0 && index < count, "PagedArray index out of range")
        return UInt(bitPattern: pages[index >> Self.pageShift] + (index & (Self.pageSize - 1)))
    }

    mutating func append(_ element: Element) {
        if count == capacity { addPage() }
        pages[count >> Self.pageShift][count & (Self.pageSize - 1)] = element
        count += 1
    }

    private mutating func addPage() {
        if pageCount == pageCapacity {
            let grown = UnsafeMutablePointer<UnsafeMutablePointer<Element>>.allocate(capacity: pageCapacity * 2)
            grown.moveInitialize(from: pages, count: pageCount)
            pages.deallocate()
            pages = grown
            pageCapacity *= 2
        }
        let page = UnsafeMutableRawPointer.allocate(byteCount: Self.pageSize * MemoryLayout<Element>.stride,
                                                    alignment: Swift.max(64, MemoryLayout<Element>.alignment))
            .bindMemory(to: Element.self, capacity: Self.pageSize)
        page.initialize(repeating: filler, count: Self.pageSize)
        (pages + pageCount).initialize(to: page)
        pageCount += 1
    }
}
