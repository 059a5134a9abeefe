-- The order of test files with --shuffle-files, after shuffle.lua: `...` is
-- the seed and the names, one a line; returns them shuffled, one a line.
local seed, text = ...
local t = {}
for name in (text .. "\n"):gmatch("(.-)\n") do t[#t + 1] = name end
if text == "" then t = {} end
math.randomseed(math.tointeger(tonumber(seed)) or 0)
return table.concat(busted_shuffle(t), "\n")
