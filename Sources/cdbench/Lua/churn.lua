-- cdbench churn: start, append and cancel in turn, from Lua; `...` is the
-- number of operations in all.
local rounds = math.floor(tonumber(...) / 3)
local start = countdown.start
local opts = { seconds = 60, every = 1 }
for i = 1, rounds do
  local h = start(opts)
  h:append(5)
  h:cancel()
end
