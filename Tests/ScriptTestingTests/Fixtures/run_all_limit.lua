it("a countdown that restarts itself forever hits the limit", function()
  local h
  h = countdown.start{ seconds = 1, on_done = function() h:append(1) end }
  clock.run_all{ limit = 50 }
end)
it("the default limit is 100000 ticks", function()
  local h
  h = countdown.start{ seconds = 1, on_done = function() h:append(1) end }
  clock.run_all()
end)
it("runs on after the limit", function()
  expect(countdown.list()).to_equal({})
end)
