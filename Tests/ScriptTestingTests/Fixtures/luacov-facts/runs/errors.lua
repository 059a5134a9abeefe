-- Errors caught, goto, and conditions over several lines.
local function risky(x)
  if x > 2 then
    error("too big")
  end
  return x
end
local results = {}
for n = 1, 4 do
  local ok, err = pcall(risky, n)
  if not ok then
    goto continue
  end
  results[#results + 1] = err
  ::continue::
end
local flag = #results > 1
  and results[1] == 1
  or false
print(#results, flag)
