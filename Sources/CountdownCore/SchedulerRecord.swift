extension Scheduler {
    /// One countdown as the scheduler keeps it: 64 bytes, one cache line (the
    /// pages of `records` are aligned to 64), so that every tick touches one line
    /// of its record and a million countdowns cost 64 MB here, not 88.
    ///
    /// What every tick reads comes first, in 48 bytes. The rest is packed: the
    /// flags share a word with the start order, and one field holds the start
    /// instant or the frozen remaining time, which are never needed together.
    /// A wall countdown's wall-clock deadline is kept beside the records
    /// (`Scheduler.wallDeadlines`): few countdowns have one.
    struct Record: BitwiseCopyable {
        var epoch: UInt32 = 0
        var generation: UInt32 = 0
        /// Ticks skipped before an event that a late pass queued at its own instant.
        var carriedMissed: Int64 = 0
        var deadline: Nanoseconds = 0
        var every: Nanoseconds = 0
        var total: Nanoseconds = 0
        var context: UInt64 = 0
        /// The start order in the low 56 bits (a million starts a second for two
        /// thousand years), the flags in the top byte.
        private var seqAndFlags: UInt64 = Record.wantsTicksBit | UInt64(CountdownState.finished.rawValue) << Record.stateShift
        /// See `started` and `pausedRemaining`.
        private var instant: Nanoseconds = 0

        private static let seqMask: UInt64 = (1 << 56) - 1
        private static let liveBit: UInt64 = 1 << 56
        private static let wantsTicksBit: UInt64 = 1 << 57
        private static let isWallBit: UInt64 = 1 << 58
        private static let stateShift: UInt64 = 59
        private static let stateMask: UInt64 = 3 << stateShift
        private static let overtimeBit: UInt64 = 1 << 61
        private static let pastEndBit: UInt64 = 1 << 62

        var seq: UInt64 {
            @inline(__always) get { seqAndFlags & Self.seqMask }
            @inline(__always) set { seqAndFlags = (seqAndFlags & ~Self.seqMask) | (newValue & Self.seqMask) }
        }

        var live: Bool {
            @inline(__always) get { seqAndFlags & Self.liveBit != 0 }
            @inline(__always) set { setFlag(Self.liveBit, newValue) }
        }

        var wantsTicks: Bool {
            @inline(__always) get { seqAndFlags & Self.wantsTicksBit != 0 }
            @inline(__always) set { setFlag(Self.wantsTicksBit, newValue) }
        }

        var isWall: Bool {
            @inline(__always) get { seqAndFlags & Self.isWallBit != 0 }
            @inline(__always) set { setFlag(Self.isWallBit, newValue) }
        }

        /// Started with `overtime`: past its deadline it ticks on (remaining below
        /// zero) instead of ending.
        var overtime: Bool {
            @inline(__always) get { seqAndFlags & Self.overtimeBit != 0 }
            @inline(__always) set { setFlag(Self.overtimeBit, newValue) }
        }

        /// An overtime countdown whose end was reported: it ticks past its deadline.
        var pastEnd: Bool {
            @inline(__always) get { seqAndFlags & Self.pastEndBit != 0 }
            @inline(__always) set { setFlag(Self.pastEndBit, newValue) }
        }

        var state: CountdownState {
            // Two bits hold every case (running, paused, finished, cancelled): any
            // value they can have is a case, so no check is needed.
            @inline(__always) get { unsafeBitCast(UInt8(truncatingIfNeeded: (seqAndFlags & Self.stateMask) >> Self.stateShift), to: CountdownState.self) }
            @inline(__always) set { seqAndFlags = (seqAndFlags & ~Self.stateMask) | UInt64(newValue.rawValue) << Self.stateShift }
        }

        /// While running: the instant the countdown started, or was last resumed or
        /// adopted, which its first tick (`announce`) stands for.
        var started: Nanoseconds {
            @inline(__always) get { instant }
            @inline(__always) set { instant = newValue }
        }

        /// While paused: the remaining time, frozen. Shares its field with
        /// `started`, so whatever makes a paused countdown run again sets `started`.
        var pausedRemaining: Nanoseconds {
            @inline(__always) get { instant }
            @inline(__always) set { instant = newValue }
        }

        @inline(__always)
        private mutating func setFlag(_ bit: UInt64, _ on: Bool) {
            seqAndFlags = on ? seqAndFlags | bit : seqAndFlags & ~bit
        }
    }
}
