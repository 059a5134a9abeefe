local M = {}

function M.double(x)
  return x * 2
end

function M.never()
  return "not called"
end

return M
