local core = {}

function core.triangle(n)
  local sum = 0
  for i = 1, n do
    sum = sum + i
  end
  return sum
end

function core.unused()
  return "never"
end

return core
