// Wall-clock rebasing: `at` countdowns keep their wall-clock deadline
// (`wallDeadlines`) and move on the boot clock when the wall clock jumps.
extension Scheduler {
    /// Wall time minus boot time, read from the clock itself (never from a hook's `now`).
    var currentWallOffset: Nanoseconds { clock.wallNow() - clock.bootNow() }

    /// `at` countdowns follow the wall clock: when it jumps against the boot clock,
    /// their boot-clock deadlines move with it. Duration countdowns never move.
    func rebaseIfWallMoved(now: Nanoseconds) {
        guard !wallDeadlines.isEmpty else {
            wallReferenceOffset = clock.wallNow() - now
            return
        }
        let offset = clock.wallNow() - now
        guard abs(offset - wallReferenceOffset) > wallJumpTolerance else { return }
        wallReferenceOffset = offset
        // In slot order, as the records lie: a dictionary's order changes from run to run.
        for (wallSlot, wallDeadline) in wallDeadlines.sorted(by: { $0.key < $1.key }) where records[Int(wallSlot)].state == .running {
            let slot = Int(wallSlot)
            let deadline = wallDeadline - offset
            guard deadline != records[slot].deadline else { continue }
            records[slot].deadline = deadline
            records[slot].total = max(records[slot].total, deadline - now)
            // A tick due at this very instant on the new deadline still lands.
            reschedule(slot, now: now, includingNow: true)
        }
    }
}
