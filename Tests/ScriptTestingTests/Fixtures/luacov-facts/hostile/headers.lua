local function f(a,
  b,
  ...)
  return a
end
local function g(
)
end
function M.h(a,
  b) return a
end
function M
.i(a,
b)
end
x = function
(a)
end
local y = function(a,
  b)
end
call(function(a,
  b) end)
local t = {
  f = function(self, ...)
  end,
  g = function (
    self)
  end,
  [1] = function() end,
}
return function(
  a)
  return function(b) return a + b end
end
