-- Many countdowns on the one scheduler (examples/many.lua).

describe("many countdowns", function()
  it("all end, each once, on the one scheduler", function()
    local started = clock.now()
    load_script("examples/many.lua", "1000", "2")
    expect(#countdown.list()).to_be(1001)
    clock.run_all()
    expect(clock.now() - started).to_be(2)
    expect(countdown.list()).to_equal({})
    -- 50 items each of 0.1 s .. 2.0 s; an item of n tenths ticks n times.
    expect(printed()[#printed()]).to_be("all 1000 items closed after 10500 ticks")
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
