-- h:cancel(): on_done with "cancelled", once, and no more ticks.

describe("cancel", function()
  it("calls on_done with the cancelled reason and the time that was left", function()
    local done = spy()
    local h = countdown.start{ seconds = 10, on_done = done }
    clock.advance(4)
    expect(h:cancel()).to_be(true)
    expect(done.count).to_be(1)
    expect(done.calls[1][2]).to_be("cancelled")
    expect(done.calls[1][1].remaining).to_be_near(6, 1e-9)
    expect(h:state()).to_be("cancelled")
  end)

  it("stops the ticks and never calls on_done again", function()
    local ticks, done = spy(), spy()
    local h = countdown.start{ seconds = 10, on_tick = ticks, on_done = done }
    clock.advance(3)
    h:cancel()
    local count = ticks.count
    clock.advance(20)
    expect(ticks.count).to_be(count)
    expect(done.count).to_be(1)
    expect(h:cancel()).to_be(false)
    expect(done.count).to_be(1)
  end)

  it("works from inside the countdown's own tick hook", function()
    local done = spy()
    local seen = {}
    local h
    h = countdown.start{
      seconds = 10,
      on_tick = function(t)
        seen[#seen + 1] = t.remaining
        if t.remaining == 7 then h:cancel() end
      end,
      on_done = done,
    }
    clock.run_all()
    expect(seen).to_equal({ 10, 9, 8, 7 })
    expect(done.count).to_be(1)
    expect(done.calls[1][2]).to_be("cancelled")
  end)

  it("cancel_all ends every active countdown, in start order", function()
    local order = {}
    for _, id in ipairs({ "a", "b", "c" }) do
      countdown.start{ id = id, seconds = 5, on_done = function(t, reason) order[#order + 1] = t.id .. ":" .. reason end }
    end
    countdown.cancel_all()
    expect(order).to_equal({ "a:cancelled", "b:cancelled", "c:cancelled" })
    expect(countdown.list()).to_equal({})
  end)
end)
