import CLua
import CLuaShim
import CountdownCore
import TerminalView

/// The global `view` table: `label`, `big`, `progress`, `button`, `set`, `get`,
/// `title`, `bell`, `close`, and `press` and `screen`, which act as a user would
/// (type a key, look at the screen).
extension LuaHost {
    /// Swaps in a fresh controller, releasing the old buttons' callbacks (the test
    /// runner gives every test an empty screen). The `view` table stays as it is.
    public func replaceViewController(_ controller: ViewController) {
        if let old = view {
            for ref in old.pressRefs.values { cd_unref(vm.state.raw, ref) }
            // The old view's elements are gone: their memory no longer counts.
            _ = cd_limits_charge(vm.state.raw, -Int64(old.heldTotal))
            for ref in old.keyRefs.values { cd_unref(vm.state.raw, ref) }
        }
        view = ViewBinding(host: self, controller: controller)
    }

    /// Installs the `view` library drawing on `controller`. The executable decides
    /// what it draws on: a terminal, plain lines, or a `VirtualTerminal`.
    public func installView(_ controller: ViewController) {
        view = ViewBinding(host: self, controller: controller)
        let L = vm.state
        L.pushTable(fields: 12)
        register([
            ("label", ViewBinding.viewLabel),
            ("big", ViewBinding.viewBig),
            ("progress", ViewBinding.viewProgress),
            ("button", ViewBinding.viewButton),
            ("set", ViewBinding.viewSet),
            ("get", ViewBinding.viewGet),
            ("title", ViewBinding.viewTitle),
            ("bell", ViewBinding.viewBell),
            ("close", ViewBinding.viewClose),
            ("press", ViewBinding.viewPress),
            ("screen", ViewBinding.viewScreen),
            ("paused_text", ViewBinding.viewPausedText),
            ("on_key", ViewBinding.viewOnKey),
            ("plain", ViewBinding.viewIsPlain),
            ("configure", ViewBinding.viewConfigure),
        ], into: L)
        setGlobal("view")
    }

    /// The view installed with `installView`.
    public var viewController: ViewController? { view?.controller }
}

extension ViewBinding {
    // MARK: Text the view holds, against the memory limit

    /// Bytes of the strings among `values`.
    static func textBytes(_ values: [(String, FieldValue)]) -> Int {
        values.reduce(0) { sum, field in
            if case .string(let s) = field.1 { return sum + field.0.utf8.count + s.utf8.count }
            return sum
        }
    }

    // MARK: Host functions

    static let viewLabel: cd_host_function = { L, context in create(L, context, .label) }
    static let viewBig: cd_host_function = { L, context in create(L, context, .big) }
    static let viewProgress: cd_host_function = { L, context in create(L, context, .progress) }
    static let viewButton: cd_host_function = { L, context in create(L, context, .button) }

    /// Counts what the view will hold under `key` (an element id, or the title)
    /// against --memory-limit, replacing what it held there before.
    /// Returns what was held there before (for `restoreText`).
    @discardableResult
    fileprivate func chargeText(_ L: LuaState, key: String, bytes: Int, function fn: String) throws(APIError) -> Int {
        let old = heldTextBytes[ElementKey(key)] ?? 0
        guard cd_limits_charge(L.raw, Int64(bytes - old)) != 0 else {
            let cap = Int(cd_get_limits(L.raw).pointee.cap)
            let limit = cap >= 1 << 20 ? "\(cap >> 20) MB" : "\(cap) bytes"
            throw APIError("\(fn): memory limit exceeded: the view's elements and text (\(heldTotal + bytes - old) bytes) and the script's Lua memory would pass the --memory-limit of \(limit)")
        }
        heldTextBytes[ElementKey(key)] = bytes
        heldTotal += bytes - old
        return old
    }

    /// Undoes a charge whose change the view refused.
    fileprivate func restoreText(_ L: LuaState, key: String, to previous: Int) {
        let now = heldTextBytes[ElementKey(key)] ?? 0
        _ = cd_limits_charge(L.raw, Int64(previous - now))
        heldTextBytes[ElementKey(key)] = previous == 0 ? nil : previous
        heldTotal += previous - now
    }

    private static func create(_ L: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ kind: ElementKind) -> Int32 {
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let fn = "view.\(kind.rawValue)"
            let view = try ViewBinding.installed(in: host, fn)
            guard L.type(at: 1) == LUA_TTABLE else {
                throw APIError("\(fn): expected a table of fields such as {id = \"status\", ...}, got \(L.typeName(at: 1))")
            }
            let fields = try readFields(L, at: 1, function: fn)
            guard case .string(let id)? = fields.id else {
                throw APIError("\(fn): 'id' must be a string, got \(fields.id?.typeNameForLua ?? "nil")")
            }
            if fields.onPress != 0, kind != .button {
                throw APIError("\(fn): a \(kind.rawValue) has no field 'on_press'")
            }
            // A taken id is refused by `add` below; only a new element holds more text.
            let previous = view.controller.element(id) == nil
                ? try view.chargeText(L, key: id, bytes: view.controller.heldBytes(textBytes: id.utf8.count + textBytes(fields.values)), function: fn) : nil
            do throws(ViewError) {
                try view.controller.add(kind, id: id, fields: fields.values)
            } catch {
                if let previous { view.restoreText(L, key: id, to: previous) }
                throw APIError("\(fn): \(error.message)")
            }
            if fields.onPress != 0 {
                L.pushValue(at: fields.onPress)
                view.pressRefs[ElementKey(id)] = L.ref()
            }
            L.push(id)
            return 1
        }
    }

    static let viewSet: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let fn = "view.set"
            let view = try ViewBinding.installed(in: host, fn)
            guard let id = L.string(at: 1) else {
                throw APIError("\(fn): expected an element id as argument 1, got \(L.typeName(at: 1))")
            }
            guard L.type(at: 2) == LUA_TTABLE else {
                throw APIError("\(fn): expected a table of fields as argument 2, got \(L.typeName(at: 2))")
            }
            let fields = try readFields(L, at: 2, function: fn)
            if let given = fields.id, given != .string(id) {
                throw APIError("\(fn): 'id' cannot be changed (element '\(id)')")
            }
            guard let element = view.controller.element(id) else {
                throw APIError("\(fn): \(view.controller.model.unknownID(id).message)")
            }
            if fields.onPress != 0, element.kind != .button {
                throw APIError("\(fn): a \(element.kind.rawValue) has no field 'on_press'")
            }
            // What the element will hold: its fields, with the new values in place.
            var merged = Dictionary(element.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
            for (name, value) in fields.values { merged[name] = value }
            let previous = try view.chargeText(L, key: id, bytes: view.controller.heldBytes(textBytes: id.utf8.count + textBytes(merged.map { ($0.key, $0.value) })), function: fn)
            do throws(ViewError) {
                try view.controller.set(id, fields: fields.values)
            } catch {
                view.restoreText(L, key: id, to: previous)
                throw APIError("\(fn): \(error.message)")
            }
            if fields.onPress != 0 {
                if let old = view.pressRefs[ElementKey(id)] { cd_unref(L.raw, old) }
                L.pushValue(at: fields.onPress)
                view.pressRefs[ElementKey(id)] = L.ref()
            }
            return 0
        }
    }

    static let viewGet: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let fn = "view.get"
            let view = try ViewBinding.installed(in: host, fn)
            guard let id = L.string(at: 1) else {
                throw APIError("\(fn): expected an element id, got \(L.typeName(at: 1))")
            }
            guard let element = view.controller.element(id) else {
                throw APIError("\(fn): \(view.controller.model.unknownID(id).message)")
            }
            L.pushTable(fields: 6)
            for (name, value) in element.fields {
                switch value {
                case .string(let s): L.push(s)
                case .number(let n): lua_pushnumber(L.raw, n)
                case .boolean(let b): L.push(b)
                case .other: L.pushNil()
                }
                L.setRawField(-2, name)
            }
            if let ref = view.pressRefs[ElementKey(id)] {
                L.pushRef(ref)
                L.setRawField(-2, "on_press")
            }
            return 1
        }
    }

    static let viewTitle: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let view = try ViewBinding.installed(in: host, "view.title")
            guard let text = L.string(at: 1) else {
                throw APIError("view.title: expected a string, got \(L.typeName(at: 1))")
            }
            try view.chargeText(L, key: "\u{0}title", bytes: text.utf8.count, function: "view.title")
            // The title goes into an OSC sequence, where a control character could
            // end it and start another (a clipboard write, say).
            view.controller.setTitle(VisibleText.escaped(text))
            return 0
        }
    }

    static let viewBell: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            try ViewBinding.installed(in: host, "view.bell").controller.bell()
            return 0
        }
    }

    static let viewClose: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            try ViewBinding.installed(in: host, "view.close").controller.close()
            return 0
        }
    }

    static let viewPress: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let view = try ViewBinding.installed(in: host, "view.press")
            guard let text = L.string(at: 1) else {
                throw APIError("view.press: expected a key such as \"r\", got \(L.typeName(at: 1))")
            }
            let key: String
            do throws(ViewError) {
                key = try Key.normalize(text)
            } catch {
                throw APIError("view.press: \(error.message)")
            }
            let outcome = view.press(key)
            lua_pushboolean(L.raw, outcome == .unbound || outcome.isDisabled ? 0 : 1)
            return 1
        }
    }

    static let viewScreen: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            L.push(try ViewBinding.installed(in: host, "view.screen").controller.screenText())
            return 1
        }
    }

    /// `view.paused_text{text = "...", style = "...", hidden = false}`: what the
    /// view shows while Space holds countdowns paused. Fields left out keep
    /// their value; `view.paused_text{}` returns nothing.
    static let viewPausedText: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let fn = "view.paused_text"
            let view = try ViewBinding.installed(in: host, fn)
            guard L.type(at: 1) == LUA_TTABLE else {
                throw APIError("\(fn): expected a table such as {text = \"paused\", style = \"bold\", hidden = false}, got \(L.typeName(at: 1))")
            }
            try StartOptions.checkFieldNames(L, at: 1, allowed: ["text", "resumed_text", "style", "hidden"], function: fn)
            var note = view.controller.pauseNote
            for name in ["text", "resumed_text", "style"] {
                let type = L.rawField(1, name)
                defer { L.pop() }
                if type == LUA_TNIL { continue }
                guard type == LUA_TSTRING, let text = L.string(at: -1) else {
                    throw APIError("\(fn): '\(name)' must be a string, got \(L.typeName(at: -1))")
                }
                switch name {
                case "text": note.text = text
                case "resumed_text": note.resumedText = text
                default:
                    do throws(ViewError) {
                        note.style = try CellStyle.parse(text)
                    } catch {
                        throw APIError("\(fn): \(error.message)")
                    }
                    note.styleText = text
                }
            }
            switch L.rawField(1, "hidden") {
            case LUA_TNIL: break
            case LUA_TBOOLEAN: note.visible = lua_toboolean(L.raw, -1) == 0
            default:
                let got = L.typeName(at: -1)
                L.pop()
                throw APIError("\(fn): 'hidden' must be a boolean, got \(got)")
            }
            L.pop()
            let noteBytes = note.text.utf8.count + note.resumedText.utf8.count + note.styleText.utf8.count
            try view.chargeText(L, key: "\u{0}paused_text", bytes: noteBytes, function: fn)
            view.controller.setPauseNote(note)
            return 0
        }
    }

    /// The host's view, or the error a `view` function raises without one.
    static func installed(in host: LuaHost, _ function: String) throws(APIError) -> ViewBinding {
        guard let view = host.view else { throw APIError("\(function): this host has no view") }
        return view
    }

    /// The fields of the table at `index`, in name order; `on_press` stays on the
    /// stack (its index is returned) and `id` is returned apart.
    private static func readFields(_ L: LuaState, at index: Int32, function: String) throws(APIError)
        -> (id: FieldValue?, values: [(String, FieldValue)], onPress: Int32)
    {
        let table = lua_absindex(L.raw, index)
        var values: [(String, FieldValue)] = []
        var id: FieldValue?
        var onPress: Int32 = 0
        L.pushNil()
        while lua_next(L.raw, table) != 0 {
            guard let name = L.string(at: -2) else {
                let type = L.typeName(at: -2)
                L.pop(2)
                throw APIError("\(function): field names must be strings, got a \(type) key")
            }
            if name == "on_press" {
                guard L.isCallable(at: -1) else {
                    let type = L.typeName(at: -1)
                    L.pop(2)
                    throw APIError("\(function): 'on_press' must be a function, got \(type)")
                }
                // Keep the callback on the stack below the key, where lua_next does not look.
                L.pushValue(at: -1)
                lua_rotate(L.raw, -3, 1)
                L.pop()
                onPress = L.top - 1
                continue
            }
            let value: FieldValue
            switch L.type(at: -1) {
            case LUA_TSTRING: value = .string(L.string(at: -1) ?? "")
            case LUA_TNUMBER: value = .number(lua_tonumberx(L.raw, -1, nil))
            case LUA_TBOOLEAN: value = .boolean(lua_toboolean(L.raw, -1) != 0)
            default: value = .other(typeName: L.typeName(at: -1))
            }
            L.pop()
            if name == "id" { id = value } else { values.append((name, value)) }
        }
        values.sort { $0.0 < $1.0 }
        return (id, values, onPress)
    }
}

extension FieldValue {
    var typeNameForLua: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .boolean: "boolean"
        case .other(let name): name
        }
    }
}

extension ViewController.PressOutcome {
    var isDisabled: Bool {
        if case .disabled = self { return true }
        return false
    }
}
