-- busted's shuffle (busted.utils.shuffle) on Lua 5.4's generator, for the
-- order of test files with --shuffle-files: `...` is the seed and the names,
-- one a line; returns them shuffled, one a line. The same seed gives the
-- order busted gives.
local seed, text = ...
local t = {}
for name in (text .. "\n"):gmatch("(.-)\n") do t[#t + 1] = name end
if text == "" then t = {} end
math.randomseed(math.tointeger(tonumber(seed)) or 0)
local n = #t
while n >= 2 do
  local k = math.random(n)
  t[n], t[k] = t[k], t[n]
  n = n - 1
end
return table.concat(t, "\n")
