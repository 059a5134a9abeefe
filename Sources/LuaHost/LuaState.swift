import CLua
import CLuaShim

/// A Lua state as Swift code sees it: the stack operations the host, its
/// libraries and the test runner need, each doing one thing to the stack, as
/// Lua's own API does. It is a view of a `lua_State` (a thread), not an owner:
/// `LuaVM` creates and closes the state.
///
/// None of these functions can raise a Lua error except on a failed allocation,
/// which the default allocator never reports: tables are read and written with
/// `lua_raw*` only, so no metamethod runs. Lua code is entered only through
/// `call` (or `callAsCallback`), which runs it protected.
public struct LuaState {
    /// The `lua_State *`, for the C API and the shim.
    public let raw: OpaquePointer

    @inline(__always)
    public init(_ raw: OpaquePointer) { self.raw = raw }

    // MARK: The stack

    /// The index of the top element (the number of values on the stack).
    public var top: Int32 { lua_gettop(raw) }

    /// Sets the top to `index`, dropping what is above it.
    public func setTop(_ index: Int32) { lua_settop(raw, index) }

    @inline(__always)
    public func pop(_ n: Int32 = 1) { cd_pop(raw, n) }

    /// Moves the top value to `index`, shifting the values above it up.
    public func insert(at index: Int32) { lua_rotate(raw, index, 1) }

    /// Removes the value at `index`, shifting the values above it down.
    public func remove(at index: Int32) {
        lua_rotate(raw, index, -1)
        pop()
    }

    @inline(__always)
    public func push(_ string: String) {
        var copy = string
        copy.withUTF8 { buffer in
            _ = lua_pushlstring(raw, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, buffer.count)
        }
    }

    /// Pushes `bytes` as a Lua string, as they are.
    public func push(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            _ = lua_pushlstring(raw, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, buffer.count)
        }
    }

    public func push(_ integer: Int) { lua_pushinteger(raw, lua_Integer(integer)) }

    public func push(_ flag: Bool) { lua_pushboolean(raw, flag ? 1 : 0) }

    public func pushNil() { lua_pushnil(raw) }

    /// Pushes a copy of the value at `index`.
    public func pushValue(at index: Int32) { lua_pushvalue(raw, index) }

    /// Pushes a new table with room for `array` list items and `fields` other keys.
    public func pushTable(array: Int32 = 0, fields: Int32 = 0) { lua_createtable(raw, array, fields) }

    /// Pushes `strings` as a new list table.
    public func pushList(_ strings: [String]) {
        pushTable(array: Int32(strings.count))
        for (i, text) in strings.enumerated() {
            push(text)
            lua_rawseti(raw, -2, lua_Integer(i + 1))
        }
    }

    /// Pushes the global table.
    public func pushGlobals() { lua_rawgeti(raw, cd_registry_index(), lua_Integer(LUA_RIDX_GLOBALS)) }

    /// Pushes a Swift host function that receives `context` (see `cd_host_function`).
    public func pushHostFunction(_ fn: cd_host_function, context: UnsafeMutableRawPointer) {
        cd_push_host_function(raw, fn, context)
    }

    // MARK: Reading values

    public func type(at index: Int32) -> Int32 { lua_type(raw, index) }

    public func typeName(at index: Int32) -> String {
        String(cString: lua_typename(raw, lua_type(raw, index)))
    }

    /// The string at `index` without conversion; nil unless it is a string.
    public func string(at index: Int32) -> String? {
        guard lua_type(raw, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let pointer = cd_to_string(raw, index, &length) else { return nil }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// Whether the value at `index` is neither false nor nil.
    public func boolean(at index: Int32) -> Bool { lua_toboolean(raw, index) != 0 }

    /// The number at `index`; nil unless it is a number (strings are not converted).
    public func number(at index: Int32) -> Double? {
        guard lua_type(raw, index) == LUA_TNUMBER else { return nil }
        return lua_tonumberx(raw, index, nil)
    }

    /// True for functions and for values whose metatable has `__call`.
    public func isCallable(at index: Int32) -> Bool {
        let t = lua_type(raw, index)
        if t == LUA_TFUNCTION { return true }
        guard t == LUA_TTABLE || t == LUA_TUSERDATA else { return false }
        guard lua_getmetatable(raw, index) != 0 else { return false }
        let callable = rawField(-1, "__call") == LUA_TFUNCTION
        pop(2)
        return callable
    }

    // MARK: Tables, without metamethods

    /// Pushes `t[key]` of the table at `index`; returns its type.
    @discardableResult
    public func rawField(_ index: Int32, _ key: String) -> Int32 {
        let table = lua_absindex(raw, index)
        push(key)
        return lua_rawget(raw, table)
    }

    /// `t[key] = top` for the table at `index`; pops the value.
    public func setRawField(_ index: Int32, _ key: String) {
        let table = lua_absindex(raw, index)
        push(key)
        lua_rotate(raw, -2, 1)
        lua_rawset(raw, table)
    }

    /// `t[key]` of the table at `index` as a string.
    public func textField(_ index: Int32, _ key: String) -> String? {
        rawField(index, key)
        defer { pop() }
        return string(at: -1)
    }

    /// `t[key]` of the table at `index` as an integer.
    public func integerField(_ index: Int32, _ key: String) -> Int? {
        rawField(index, key)
        defer { pop() }
        return number(at: -1).flatMap { Int(exactly: $0.rounded()) }
    }

    /// Pushes `t[i]` of the table at `index`; returns its type.
    @discardableResult
    public func rawItem(_ index: Int32, _ i: Int) -> Int32 { lua_rawgeti(raw, index, lua_Integer(i)) }

    /// `t[i] = top` for the table at `index`; pops the value.
    public func setRawItem(_ index: Int32, _ i: Int) { lua_rawseti(raw, index, lua_Integer(i)) }

    /// The raw length (`#` without `__len`) of the value at `index`.
    public func rawLength(at index: Int32) -> Int { Int(lua_rawlen(raw, index)) }

    // MARK: References

    /// Pops the top value into the registry and returns its reference.
    public func ref() -> Int32 { cd_ref(raw) }

    /// Pushes the value a registry reference names.
    public func pushRef(_ ref: Int32) { cd_push_ref(raw, ref) }

    // MARK: Loading and calling

    /// Loads `text` as a text chunk named `chunkName` (`=name` or `@path`): pushes
    /// the function, or the error message; returns the status.
    public func load(_ text: String, chunkName: String) -> Int32 {
        var copy = text
        return copy.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cd_load_text(raw, $0.baseAddress, $0.count, chunkName) }
        }
    }

    /// Pushes the precompiled chunk `bytecode` (what `lua_dump` wrote at build
    /// time, Sources/LuaBytecode), or an error message; returns the status.
    /// Binary chunks only: nothing a script gives reaches this.
    func load(bytecode: [UInt8], chunkName: String) -> Int32 {
        bytecode.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { luaL_loadbufferx(raw, $0.baseAddress, $0.count, chunkName, "b") }
        }
    }

    /// Calls the function below `arguments` values in protected mode with a
    /// traceback: leaves `results` values, or the message with its traceback;
    /// returns the status.
    public func call(arguments: Int32, results: Int32) -> Int32 {
        cd_pcall_traceback(raw, arguments, results)
    }
}
