it("a hook that raises during advance fails this test", function()
  countdown.start{
    id = "broken",
    seconds = 5,
    on_tick = function(t)
      if t.remaining == 3 then error("tick hook broke") end
    end,
  }
  clock.advance(4)
  error("never reached: advance raised first")
end)
it("the next test runs normally", function()
  local ticks = spy()
  countdown.start{ seconds = 2, on_tick = ticks }
  clock.advance(2)
  expect(ticks.count).to_be(2)
end)
it("a first tick that raises inside start fails the test too", function()
  countdown.start{ seconds = 2, on_tick = function() error("first tick broke") end }
end)
it("an on_done that raises on cancel fails the test", function()
  local h = countdown.start{ seconds = 2, on_done = function() error("done hook broke") end }
  h:cancel()
end)
