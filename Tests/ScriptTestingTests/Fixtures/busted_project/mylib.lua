-- A library under test, found through ./?.lua as busted finds it.
local M = { calls = 0 }
function M.add(a, b)
  M.calls = M.calls + 1
  return a + b
end
function M.greet(name) return "hello " .. name end
return M
