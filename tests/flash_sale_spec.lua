-- A flash sale counting down to a date, shown to tenths of a second
-- (examples/flash_sale.lua).

describe("a flash sale", function()
  it("counts down to its date in tenths, from the first tick", function()
    clock.set_wall("2026-12-01T19:59:50+08:00")
    local sale = load_script("examples/flash_sale.lua", "2026-12-01T20:00:00+08:00")
    expect(printed()).to_equal({ "Sale ends in 00:00:10.0" })
    clock.advance(0.1)
    expect(printed()[2]).to_be("Sale ends in 00:00:09.9")
    clock.advance(0.2)
    expect(printed()[4]).to_be("Sale ends in 00:00:09.7")
    expect(sale:remaining()).to_be_near(9.7, 1e-9)
  end)

  it("ticks a hundred times in ten seconds, then ends exactly once", function()
    clock.set_wall("2026-12-01T19:59:50+08:00")
    local sale = load_script("examples/flash_sale.lua", "2026-12-01T20:00:00+08:00")
    local started = clock.now()
    clock.advance(9.9)
    local lines = printed()
    expect(#lines).to_be(100)
    expect(lines[100]).to_be("Sale ends in 00:00:00.1")
    clock.advance(0.1)
    lines = printed()
    expect(lines[101]).to_be("The sale has ended.")
    expect(sale:state()).to_be("finished")
    clock.advance(60)
    expect(#printed()).to_be(101)
    expect(clock.now() - started).to_be_near(70, 1e-9)
  end)

  it("shows days while there are any", function()
    clock.set_wall("2026-11-29T18:30:00+08:00")
    load_script("examples/flash_sale.lua", "2026-12-01T20:00:00+08:00")
    expect(printed()[1]).to_be("Sale ends in 2d 01:30:00.0")
  end)

  it("drops the days when the last day begins", function()
    clock.set_wall("2026-11-30T19:59:59.8+08:00")
    load_script("examples/flash_sale.lua", "2026-12-01T20:00:00+08:00")
    clock.advance(0.3)
    expect(printed()).to_equal({
      "Sale ends in 1d 00:00:00.2",
      "Sale ends in 1d 00:00:00.1",
      "Sale ends in 1d 00:00:00.0",
      "Sale ends in 23:59:59.9",
    })
  end)

  it("ends at once when its date has already passed", function()
    clock.set_wall("2026-12-01T20:00:01+08:00")
    local sale = load_script("examples/flash_sale.lua", "2026-12-01T20:00:00+08:00")
    expect(printed()).to_equal({ "The sale has ended." })
    expect(sale:state()).to_be("finished")
  end)

  it("runs a 5 s demo sale without a date", function()
    local sale = load_script("examples/flash_sale.lua")
    expect(printed()[1]).to_be("Sale ends in 00:00:05.0")
    local ended_at = clock.run_all()
    expect(printed()[#printed()]).to_be("The sale has ended.")
    expect(#printed()).to_be(51)
    expect(sale:state()).to_be("finished")
    expect(ended_at).to_be(clock.now())
  end)
end)
