-- Lines run inside coroutines, and a yield across pcall.
local gen = coroutine.wrap(function()
  for n = 1, 3 do
    coroutine.yield(n)
  end
end)
print(gen(), gen(), gen())

local co = coroutine.create(function(a)
  local ok, b = pcall(function()
    return coroutine.yield(a + 1)
  end)
  return ok and b * 2
end)
print(coroutine.resume(co, 1))
print(coroutine.resume(co, 5))
