-- Table constructors over many lines, function values, long and continued strings.
local handlers = {
  add = function(a, b)
    return a + b
  end,
  name = "handlers",
  [1] = true,
  nested = {
    deep = { 1, 2,
      3 },
  },
}
local text = [[
first
second]]
local joined = "a\
b" .. 'c\z
       d'
local mt = setmetatable({}, {
  __index = function(_, key)
    return key .. "!"
  end,
  __call = function(self, x)
    return x
  end,
})
print(handlers.add(1,
  2), #text, joined, mt.hello, mt(7), handlers.nested.deep[3])
