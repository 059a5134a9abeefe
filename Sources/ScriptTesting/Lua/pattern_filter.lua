-- Which of the names (one a line) match one of the Lua patterns (one a line): "1" or "0" each
-- (BustedConfig.matching).
local names, patterns = ...
local keep = {}
for name in (names .. "\n"):gmatch("(.-)\n") do
  local ok = false
  for p in (patterns .. "\n"):gmatch("(.-)\n") do
    if p ~= "" and pcall(string.find, name, p) and name:find(p) then ok = true break end
  end
  keep[#keep + 1] = ok and "1" or "0"
end
return table.concat(keep)
