import CLua
import CLuaShim
import CountdownCore
import TerminalView

/// What `view.configure` asks for: lines or the full screen, colours or none
/// (nil: as it is).
public struct ViewMode: Sendable {
    public var plain: Bool?
    public var colours: Bool?
}

/// `view.on_key`, `view.plain` and `view.configure`: what a script needs to be a
/// whole program of its own (the built-in timer, run from an ejected copy,
/// reads `--plain` and `--no-color` itself and binds its own keys).
extension ViewBinding {
    func callKeyHandler(_ ref: Int32, key: String) {
        callCallback(ref, with: key, named: "the view.on_key handler of key \"\(VisibleText.escaped(key))\"")
    }

    /// `view.on_key(key, fn)`: `fn(key)` runs when `key` is typed and no button
    /// binds it (`"any"`: every such key but `q`). A handler of `q` replaces its
    /// quit (the handler ends the run with `view.close()`); Ctrl-C always quits.
    /// A handler of Space replaces its pause of all countdowns. `fn` nil removes it.
    static let viewOnKey: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let fn = "view.on_key"
            let view = try ViewBinding.installed(in: host, fn)
            guard let text = L.string(at: 1) else {
                throw APIError("\(fn): expected a key such as \"+\" or \"space\" (or \"any\") as argument 1, got \(L.typeName(at: 1))")
            }
            let key: String
            if text == "any" {
                key = text
            } else {
                do throws(ViewError) {
                    key = try Key.normalize(text)
                } catch {
                    throw APIError("\(fn): \(error.message)")
                }
            }
            let type = L.type(at: 2)
            guard type == LUA_TNIL || type == LUA_TNONE || L.isCallable(at: 2) else {
                throw APIError("\(fn): expected a function (or nil to remove the handler) as argument 2, got \(L.typeName(at: 2))")
            }
            if let old = view.keyRefs.removeValue(forKey: key) { cd_unref(L.raw, old) }
            if type != LUA_TNIL && type != LUA_TNONE {
                L.pushValue(at: 2)
                view.keyRefs[key] = L.ref()
            }
            return 0
        }
    }

    /// `view.plain()`: true when the view prints lines (`--plain`, or stdout is
    /// no terminal), false when it draws the full screen.
    static let viewIsPlain: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            L.push(try ViewBinding.installed(in: host, "view.plain").controller.isPlain)
            return 1
        }
    }

    /// `view.configure{plain = true, color = false}`: the run's `--plain` and
    /// `--no-color`, for a script that reads its own options. Only before the
    /// view opens (its first element); a host with a fixed surface (`cdscript
    /// test`) keeps it.
    static let viewConfigure: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let fn = "view.configure"
            let view = try ViewBinding.installed(in: host, fn)
            guard L.type(at: 1) == LUA_TTABLE else {
                throw APIError("\(fn): expected a table such as {plain = true, color = false}, got \(L.typeName(at: 1))")
            }
            try StartOptions.checkFieldNames(L, at: 1, allowed: ["plain", "color"], function: fn)
            var mode = ViewMode()
            for name in ["plain", "color"] {
                let type = L.rawField(1, name)
                defer { L.pop() }
                if type == LUA_TNIL { continue }
                guard type == LUA_TBOOLEAN else {
                    throw APIError("\(fn): '\(name)' must be a boolean, got \(L.typeName(at: -1))")
                }
                let on = lua_toboolean(L.raw, -1) != 0
                if name == "plain" { mode.plain = on } else { mode.colours = on }
            }
            if mode.plain == nil && mode.colours == nil { return 0 }
            guard !view.controller.isOpen else {
                throw APIError("\(fn): the view is open already; configure it before its first element")
            }
            guard let change = view.modeChanger, let controller = change(mode) else { return 0 }
            // Nothing is drawn yet: the new view takes over what the script set so far.
            let next = ViewBinding(host: host, controller: controller)
            next.keyRefs = view.keyRefs
            next.heldTextBytes = view.heldTextBytes
            next.modeChanger = view.modeChanger
            next.controller.setPauseNote(view.controller.pauseNote)
            if let title = view.controller.title { controller.setTitle(title) }
            host.view = next
            return 0
        }
    }
}
