import CLuaShim

extension LuaHost {
    /// Counts `bytes` kept for the script outside Lua (the Redis store's queued
    /// changes, say) against `--memory-limit`, as the view's text is; negative
    /// gives bytes back. False when they would pass the limit (nothing counted).
    public func chargeMemory(_ bytes: Int) -> Bool {
        guard !vm.isClosed else { return true }
        return cd_limits_charge(vm.state.raw, Int64(bytes)) != 0
    }
}
