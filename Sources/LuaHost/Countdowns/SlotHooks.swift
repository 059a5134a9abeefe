import CountdownCore

/// What the host keeps per countdown, packed into the scheduler's context
/// (`CountdownSpec.context`): every tick brings it along, from the record the
/// scheduler reads anyway.
struct SlotHooks {
    /// A registry reference to the countdown's handle, whose user values hold its
    /// id and hooks.
    var handleRef: Int32
    /// Its `cd_hook_flags`.
    var flags: UInt8
    /// Its on_tick's `cd_share_tick_hook` number (0: none), given back at its end.
    var sharedTickHook: UInt8

    init(handleRef: Int32, flags: UInt8, sharedTickHook: UInt8) {
        self.handleRef = handleRef
        self.flags = flags
        self.sharedTickHook = sharedTickHook
    }

    @inline(__always)
    init(context: UInt64) {
        handleRef = Int32(truncatingIfNeeded: context)
        flags = UInt8(truncatingIfNeeded: context >> 32)
        sharedTickHook = UInt8(truncatingIfNeeded: context >> 40)
    }

    var context: UInt64 {
        UInt64(UInt32(bitPattern: handleRef)) | UInt64(flags) << 32 | UInt64(sharedTickHook) << 40
    }
}
