-- Loops, recursion, varargs and tail calls, several statements a line.
local function fact(n)
  if n <= 1 then return 1 end
  return n * fact(n - 1)
end

local function sum(...)
  local total = 0
  for _, v in ipairs({ ... }) do
    total = total + v
  end
  return total
end

local function countdown(n)
  if n == 0 then
    return "done"
  end
  return countdown(n - 1)
end

local i, out = 0, {}
while i < 3 do i = i + 1; out[#out + 1] = i end
repeat
  i = i - 1
until i == 0
for k = 10, 1, -3 do
  out[#out + 1] = k
end
print(fact(5), sum(1, 2, 3), countdown(4), table.concat(out, ","))
