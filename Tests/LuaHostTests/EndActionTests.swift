import CountdownCore
import Testing

/// `on_end_action`: once per end across every host that follows a stored
/// countdown. Two testbeds sharing one store stand for two processes.
@Suite("on_end_action: one action per end, however many hosts follow the countdown")
struct EndActionTests {
    static let follower = """
        ran = 0
        h = countdown.start{ id = "x", seconds = 2, persist = true, end_lease = 1,
          on_done = function(t, why) print("done " .. why) end,
          on_end_action = function(e)
            ran = ran + 1
            print(("action %s %d %.0f"):format(e.id, e.token, e.ended_at))
          end }
        """

    @Test("the action runs after on_done, with the id, the fencing token and the end instant")
    func runsOnce() {
        let bed = LuaTestbed()
        bed.host.store.persistence = InMemoryCountdownStore()
        bed.mustRun(Self.follower)
        bed.advance(to: 3)
        #expect(bed.takeLines() == ["done finished", "action x 1 1798761602"])
        #expect(bed.eval("countdown.end_actions()") == "0")
        #expect(bed.errors.isEmpty, "\(bed.errors)")
    }

    @Test("of two hosts following one countdown, one runs the action; the other finds it done")
    func twoHosts() {
        let store = InMemoryCountdownStore()
        let a = LuaTestbed(), b = LuaTestbed()
        a.host.store.persistence = store
        b.host.store.persistence = store
        a.mustRun(Self.follower)
        b.mustRun(Self.follower.replacingOccurrences(of: "countdown.start{ id = \"x\", seconds = 2,", with: "countdown.fetch(\"x\", {")
            .replacingOccurrences(of: "persist = true, ", with: "").replacingOccurrences(of: "end }", with: "end })"))
        a.advance(to: 2)
        b.advance(to: 2)
        #expect(a.takeLines() == ["done finished", "action x 1 1798761602"])
        #expect(b.takeLines() == ["done finished"])
        // a ran it and marked it done before b saw the end: b has nothing to wait on.
        #expect(b.eval("countdown.end_actions()") == "0")
        #expect(b.eval("ran") == "0")
    }

    @Test("a claimant that never marks the end done (killed) loses it when its lease passes: the other host runs it")
    func takeover() {
        let store = InMemoryCountdownStore()
        let a = LuaTestbed(), b = LuaTestbed()
        a.host.store.persistence = store
        b.host.store.persistence = store
        let pending = """
            countdown.start{ id = "x", seconds = 2, persist = true, end_lease = 1,
              on_end_action = function(e) print("action " .. e.token); return function() return false end end }
            """
        a.mustRun(pending)
        b.mustRun(pending.replacingOccurrences(of: "countdown.start{ id = \"x\", seconds = 2, persist = true,", with: "countdown.fetch(\"x\", {")
            .replacingOccurrences(of: "end end }", with: "end end })"))
        a.advance(to: 2)
        b.advance(to: 2)
        #expect(a.takeLines() == ["action 1"])
        #expect(b.takeLines().isEmpty)
        #expect(b.eval("countdown.end_actions()") == "1", "b waits on a's action")
        // a renews while it lives (every third of the lease)...
        for step in 1...8 {
            let t = 2 + Double(step) * 0.25
            a.advance(to: t)
            b.advance(to: t)
        }
        #expect(b.takeLines().isEmpty, "no takeover while the claimant renews")
        // ...and then is gone: b takes over after the lease, with a larger token.
        b.advance(to: 6)
        #expect(b.takeLines() == ["action 2"])
    }

    @Test("an integer an action returns is its exit status, the run's to exit with; 0 or none is no failure")
    func returnedStatus() {
        for (returned, status) in [("3", Int32(3)), ("0", nil), ("nil", nil), ("'3'", nil)] {
            let bed = LuaTestbed()
            bed.host.store.persistence = InMemoryCountdownStore()
            bed.mustRun("countdown.start{ id = 'y', seconds = 1, persist = true, on_end_action = function() return \(returned) end }")
            bed.advance(to: 2)
            #expect(bed.host.store.endActionStatus == status, "returned \(returned)")
            #expect(bed.eval("countdown.end_actions()") == "0")
        }
    }

    @Test("a pending action's status (after true) is recorded with the claim: the host that waited on the end takes it too, and says where the action ran")
    func statusShared() {
        let store = InMemoryCountdownStore()
        let a = LuaTestbed(), b = LuaTestbed()
        a.host.store.persistence = store
        b.host.store.persistence = store
        let pending = """
            countdown.start{ id = "x", seconds = 2, persist = true,
              on_end_action = function(e) local began = countdown.now(); return function() return countdown.now() - began >= 1, 4 end end }
            """
        a.mustRun(pending)
        b.mustRun(pending.replacingOccurrences(of: "countdown.start{ id = \"x\", seconds = 2, persist = true,", with: "countdown.fetch(\"x\", {")
            .replacingOccurrences(of: "end end }", with: "end end })"))
        a.advance(to: 2)
        b.advance(to: 2)
        #expect(b.eval("countdown.end_actions()") == "1", "b waits on a's action")
        for step in 1...16 {
            let t = 2 + Double(step) * 0.25
            a.advance(to: t)
            b.advance(to: t)
        }
        #expect(a.host.store.endActionStatus == 4)
        #expect(b.host.store.endActionStatus == 4)
        #expect(b.eval("countdown.end_actions()") == "0")
        #expect(b.errors.contains { $0.contains("the end action of countdown \"x\" ran in another process and exited with status 4") }, "\(b.errors)")
        #expect(!a.errors.contains { $0.contains("another process") }, "\(a.errors)")
    }

    @Test("on_end_action needs persist; end_lease needs on_end_action and a lease from 0.1 s to a day")
    func badOptions() {
        let bed = LuaTestbed()
        bed.host.store.persistence = InMemoryCountdownStore()
        #expect(bed.run("countdown.start{ id = 'x', seconds = 1, on_end_action = print }")?.message.contains("it needs 'persist = true' and an 'id'") == true)
        #expect(bed.run("countdown.start{ id = 'x', seconds = 1, persist = true, end_lease = 5 }")?.message.contains("'end_lease' is the lease of an 'on_end_action'") == true)
        #expect(bed.run("countdown.start{ id = 'x', seconds = 1, persist = true, on_end_action = print, end_lease = 0 }")?.message.contains("from 0.1 to 86400, got 0") == true)
        #expect(bed.run("countdown.start{ id = 'x', seconds = 1, persist = true, on_end_action = 5 }")?.message.contains("'on_end_action' must be a function, got number") == true)
    }

    @Test("a cancelled countdown has no end to act on: no action")
    func cancelled() {
        let bed = LuaTestbed()
        bed.host.store.persistence = InMemoryCountdownStore()
        bed.mustRun(Self.follower)
        bed.mustRun("h:cancel()")
        bed.advance(to: 5)
        #expect(bed.takeLines() == ["done cancelled"])
    }
}
