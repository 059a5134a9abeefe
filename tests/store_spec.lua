-- Persistent countdowns under `cdscript test`: every test has a store of its own on the
-- virtual clock. What one test stores is gone in the next, whatever the order (these tests
-- pass alone, in this order, reversed or shuffled).

describe("the store of a test", function()
  it("keeps a countdown started with persist = true, from the first test of a file", function()
    local h = countdown.start{ id = "a", seconds = 60, persist = true }
    clock.advance(10)
    expect(h:remaining()).to_be_near(50, 1e-9)
    local stored = process.stored()
    expect(#stored).to_be(1)
    expect(stored[1].id).to_be("a")
    expect(stored[1].state).to_be("running")
    expect(stored[1].remaining).to_be_near(50, 1e-9)
    expect(stored[1].total).to_be(60)
  end)

  it("starts empty: nothing from another test is there", function()
    expect(process.stored()).to_equal({})
    local h, why = countdown.fetch("a")
    expect(h).to_be(nil)
    expect(why).to_be("unknown")
  end)

  it("stores append, pause, resume and cancel by id, and fetch picks the countdown up", function()
    local h = countdown.start{ id = "b", seconds = 30, persist = true }
    h:append(15)
    clock.advance(5)
    h:pause()
    clock.advance(100)
    expect(process.stored()[1].state).to_be("paused")
    expect(process.stored()[1].remaining).to_be_near(40, 1e-9)
    h:resume()
    clock.advance(2)
    -- A second handle on the same stored countdown (a new run of the script would get this one).
    local again = countdown.fetch("b", { every = 1 })
    expect(again:remaining()).to_be_near(38, 1e-9)
    expect(again:state()).to_be("running")
    again:cancel()
    expect(process.stored()).to_equal({})
  end)

  it("lists every stored countdown by id, finished ones as finished", function()
    countdown.start{ id = "z", seconds = 5, persist = true }
    countdown.start{ id = "m", seconds = 50, persist = true }
    countdown.start{ id = "plain", seconds = 50 }
    clock.advance(6)
    local stored = process.stored()
    expect(#stored).to_be(2)
    expect(stored[1].id).to_be("m")
    expect(stored[2].id).to_be("z")
    expect(stored[2].state).to_be("finished")
    local h, why = countdown.fetch("z")
    expect(h).to_be(nil)
    expect(why).to_be("finished")
  end)

  it("reports no store error for the same persist call in a later test", function()
    -- The same call as the first test's: before each test had a store, the first one in a
    -- file failed ("no countdown store is configured") and the later ones passed.
    countdown.start{ id = "a", seconds = 60, persist = true }
    expect(countdown.fetch("a"):remaining()).to_be(60)
  end)
end)
