local M = {}

function M.sum(n)
  local total = 0
  for i = 1, n do
    if i % 3 == 0 then
      total = total + i
    else
      total = total - 1
    end
  end
  return total
end

function M.fib(n)
  if n < 2 then return n end
  return M.fib(n - 1) + M.fib(n - 2)
end

function M.strings(n)
  local parts = {}
  for i = 1, n do
    parts[#parts + 1] = tostring(i)
  end
  return #table.concat(parts, ",")
end

return M
