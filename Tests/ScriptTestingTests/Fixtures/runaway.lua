-- A test that never ends, between two that do: with a budget, the runaway one
-- fails and the run goes on.
describe("a budget", function()
  it("lets a quick test pass", function()
    expect(1 + 1).to_be(2)
  end)

  it("stops a test that loops forever", function()
    while true do end
  end)

  it("stops a hook that loops forever, fired by the test", function()
    countdown.start{ seconds = 2, on_tick = function(t) if t.remaining < 2 then while true do end end end }
    clock.advance(1)
  end)

  it("gives the next test a fresh budget", function()
    local n = 0
    for i = 1, 1000 do n = n + i end
    expect(n).to_be(500500)
  end)
end)
