/// The elements of the view, in the order they were created, with the checks
/// that span elements: unique ids and keys bound at most once.
public struct ViewModel: Sendable {
    public private(set) var elements: [Element] = []
    private var indexByID: [ElementKey: Int] = [:]
    private var buttonByKey: [String: String] = [:]

    public init() {}

    /// What one element costs the host besides its text, as an estimate for the
    /// memory limit: the element in `elements` (with the array's spare room), its
    /// entries in the id index and in the host's bookkeeping, the renderer's and
    /// the plain output's per-element state. Measured: 400 000 progress bars in
    /// plain mode raised the peak resident size by about 460 bytes each.
    public static let bytesPerElement = 512

    public func element(_ id: String) -> Element? {
        indexByID[ElementKey(id)].map { elements[$0] }
    }

    /// The id of the button bound to `key`.
    public func button(forKey key: String) -> String? { buttonByKey[key] }

    /// Creates an element from a script's fields. `id` is required; buttons also
    /// need `label` and `key`.
    @discardableResult
    public mutating func add(_ kind: ElementKind, id: String, fields: [(String, FieldValue)]) throws(ViewError) -> Element {
        guard !id.isEmpty else { throw ViewError("'id' must not be empty") }
        guard indexByID[ElementKey(id)] == nil else {
            throw ViewError("duplicate id '\(id)': a \(elements[indexByID[ElementKey(id)]!].kind.rawValue) already has it")
        }
        var element = Element(id: id, kind: kind)
        for (name, value) in fields { try element.set(name, value) }
        if kind == .button {
            let given = Set(fields.map(\.0))
            for required in ["label", "key"] where !given.contains(required) {
                throw ViewError("a button needs '\(required)' (button '\(id)')")
            }
            try checkKey(element.key, for: id)
            buttonByKey[element.key] = id
        }
        indexByID[ElementKey(id)] = elements.count
        elements.append(element)
        return element
    }

    /// Changes fields of an existing element; nothing changes when one of them is wrong.
    /// Returns whether anything visible changed.
    @discardableResult
    public mutating func set(_ id: String, fields: [(String, FieldValue)]) throws(ViewError) -> Bool {
        guard let index = indexByID[ElementKey(id)] else { throw unknownID(id) }
        var element = elements[index]
        for (name, value) in fields { try element.set(name, value) }
        let old = elements[index]
        if element.text != old.text { element.changes = true }
        if element.kind == .button, element.key != old.key {
            try checkKey(element.key, for: id)
            buttonByKey[old.key] = nil
            buttonByKey[element.key] = id
        }
        elements[index] = element
        return element != old
    }

    public func unknownID(_ id: String) -> ViewError {
        let known = elements.map { "'\($0.id)'" }
        return ViewError("unknown id '\(id)'" + (known.isEmpty ? " (the view has no elements yet)" : " (ids: \(known.joined(separator: ", ")))"))
    }

    private func checkKey(_ key: String, for id: String) throws(ViewError) {
        if key == Key.quit { throw ViewError("key 'q' is kept for quitting the view (button '\(id)')") }
        if let owner = buttonByKey[key], owner != id {
            throw ViewError("key '\(key)' is already bound to button '\(owner)'")
        }
    }
}
