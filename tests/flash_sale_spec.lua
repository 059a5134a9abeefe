-- A flash sale counting down to a date, shown to tenths of a second
-- (tests/scripts/sale_label.lua; examples_spec.lua runs the example itself).

describe("a flash sale", function()
  it("counts down to its date in tenths, from the first tick", function()
    clock.set_wall("2026-12-01T19:59:50+08:00")
    local sale = load_script("scripts/sale_label.lua", "2026-12-01T20:00:00+08:00")
    expect(sale.text).to_be("00:00:10.0")
    clock.advance(0.1)
    expect(sale.text).to_be("00:00:09.9")
    clock.advance(0.2)
    expect(sale.text).to_be("00:00:09.7")
    expect(sale.handle:remaining()).to_be_near(9.7, 1e-9)
  end)

  it("ticks a hundred times in ten seconds, then ends exactly once", function()
    clock.set_wall("2026-12-01T19:59:50+08:00")
    local texts = {}
    local sale = load_script("scripts/sale_label.lua", "2026-12-01T20:00:00+08:00")
    local started = clock.now()
    while clock.now() - started < 9.9 - 1e-9 do
      clock.next()
      texts[#texts + 1] = sale.text
    end
    expect(#texts).to_be(99)
    expect(texts[99]).to_be("00:00:00.1")
    expect(sale.ended).to_be(nil)
    clock.next()
    expect(sale.text).to_be("The sale has ended.")
    expect(sale.ended).to_be("finished")
    expect(clock.now() - started).to_be_near(10, 1e-9)
    expect(clock.next()).to_be(nil)
  end)

  it("shows days while there are any", function()
    clock.set_wall("2026-11-29T18:30:00+08:00")
    local sale = load_script("scripts/sale_label.lua", "2026-12-01T20:00:00+08:00")
    expect(sale.text).to_be("2d 01:30:00.0")
  end)

  it("drops the days when the last day begins", function()
    clock.set_wall("2026-11-30T19:59:59.8+08:00")
    local sale = load_script("scripts/sale_label.lua", "2026-12-01T20:00:00+08:00")
    local texts = { sale.text }
    for _ = 1, 3 do
      clock.advance(0.1)
      texts[#texts + 1] = sale.text
    end
    expect(texts).to_equal({ "1d 00:00:00.2", "1d 00:00:00.1", "1d 00:00:00.0", "23:59:59.9" })
  end)

  it("ends at once when its date has already passed", function()
    clock.set_wall("2026-12-01T20:00:01+08:00")
    local sale = load_script("scripts/sale_label.lua", "2026-12-01T20:00:00+08:00")
    expect(sale.ended).to_be("finished")
    expect(sale.handle:state()).to_be("finished")
  end)

  it("ends early when the sale is called off", function()
    local sale = load_script("scripts/sale_label.lua")
    clock.advance(2)
    sale.handle:cancel()
    expect(sale.text).to_be("The sale was called off.")
    expect(sale.ended).to_be("cancelled")
  end)

  it("runs a 5 s demo sale without a date", function()
    local sale = load_script("scripts/sale_label.lua")
    expect(sale.text).to_be("00:00:05.0")
    local started = clock.now()
    expect(clock.run_all()).to_be(clock.now())
    expect(clock.now() - started).to_be_near(5, 1e-9)
    expect(sale.ended).to_be("finished")
  end)
end)
