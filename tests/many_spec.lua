-- Many countdowns on the one scheduler (examples_spec.lua runs examples/many.lua).

describe("many countdowns", function()
  it("all end, each once, on the one scheduler", function()
    local started = clock.now()
    local ticks, ends = 0, {}
    for i = 1, 1000 do
      countdown.start{
        id = "item-" .. i,
        seconds = (i % 20 + 1) / 10, -- 0.1 s .. 2.0 s, 50 items each
        every = 0.1,
        on_tick = function() ticks = ticks + 1 end,
        on_done = function(t, reason) ends[t.id] = (ends[t.id] or 0) + 1 end,
      }
    end
    expect(#countdown.list()).to_be(1000)
    clock.run_all()
    expect(clock.now() - started).to_be_near(2, 1e-9)
    expect(countdown.list()).to_equal({})
    local ended = 0
    for _, count in pairs(ends) do
      expect(count).to_be(1)
      ended = ended + 1
    end
    expect(ended).to_be(1000)
    -- An item of n tenths ticks n times: 50 * (1 + 2 + ... + 20).
    expect(ticks).to_be(10500)
  end)

  it("fire ticks due at the same instant in start order", function()
    local order = {}
    for i = 1, 5 do
      countdown.start{ id = "c" .. i, seconds = 2, on_tick = function(t) order[#order + 1] = t.id end }
    end
    order = {}
    clock.advance(1)
    expect(order).to_equal({ "c1", "c2", "c3", "c4", "c5" })
  end)

  it("keep their own intervals and deadlines", function()
    local a, b = spy(), spy()
    countdown.start{ seconds = 1, every = 0.1, on_tick = a }
    countdown.start{ seconds = 3, every = 1, on_tick = b }
    clock.advance(3)
    expect(a.count).to_be(10)
    expect(b.count).to_be(3)
  end)

  it("can be started by hooks", function()
    local finished = 0
    countdown.start{
      seconds = 1,
      on_done = function()
        for _ = 1, 100 do
          countdown.start{ seconds = 1, on_done = function() finished = finished + 1 end }
        end
      end,
    }
    clock.run_all()
    expect(finished).to_be(100)
  end)
end)
