import CLua
import CountdownCore

/// A stored countdown's title and end-action names, as `countdown.start` was
/// given them; kept by `StoreBinding` for as long as the countdown runs, so that
/// every record this process writes for it carries them.
struct StoredAnnotations: Equatable {
    var title: String?
    var actions: [String] = []

    var isEmpty: Bool { title == nil && actions.isEmpty }
}

extension StartOptions {
    /// `title = "..."` and `actions = {"notify", ...}`: what a stored countdown
    /// shows and which end actions `cdscript serve` runs for it. Both belong to
    /// the stored record, so they need `persist = true`; both are held to
    /// `CountdownAnnotations`' limits here, before anything is stored.
    static func annotationOptions(_ L: LuaState, _ index: Int32, persistent: Bool, _ fn: String) throws(APIError) -> StoredAnnotations {
        var annotations = StoredAnnotations()
        switch L.rawField(index, "title") {
        case LUA_TNIL:
            L.pop()
        case LUA_TSTRING:
            let text = storableID(L, at: -1)
            L.pop()
            guard let text else { throw APIError("\(fn): 'title' must be UTF-8 text without NUL bytes") }
            if let refusal = CountdownAnnotations.titleRefusal(text) { throw APIError("\(fn): 'title': \(refusal)") }
            annotations.title = text
        default:
            defer { L.pop() }
            throw APIError("\(fn): 'title' must be a string, got \(L.typeName(at: -1))")
        }
        switch L.rawField(index, "actions") {
        case LUA_TNIL:
            L.pop()
        case LUA_TTABLE:
            defer { L.pop() }
            let count = Int(lua_rawlen(L.raw, -1))
            // More than the limit is refused without reading them all.
            guard count <= CountdownAnnotations.mostActions else {
                throw APIError("\(fn): 'actions': \(CountdownAnnotations.actionsRefusal(Array(repeating: "x", count: count))!)")
            }
            for position in 0..<count {
                _ = L.rawItem(-1, position + 1)
                let name = L.string(at: -1)
                let typeName = L.typeName(at: -1)
                L.pop()
                guard let name else {
                    throw APIError("\(fn): 'actions' must be a list of action names, got a \(typeName) at [\(position + 1)]")
                }
                annotations.actions.append(name)
            }
            if let refusal = CountdownAnnotations.actionsRefusal(annotations.actions) { throw APIError("\(fn): 'actions': \(refusal)") }
        default:
            defer { L.pop() }
            throw APIError("\(fn): 'actions' must be a list of action names such as {\"notify\"}, got \(L.typeName(at: -1))")
        }
        if !annotations.isEmpty && !persistent {
            throw APIError("\(fn): 'title' and 'actions' belong to a stored countdown: give persist = true (and an id)")
        }
        return annotations
    }
}
