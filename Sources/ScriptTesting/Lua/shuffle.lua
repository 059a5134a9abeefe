-- busted's shuffle (busted.utils.shuffle) on Lua 5.4's generator: the order of
-- test files with --shuffle-files (shuffle_files.lua) and of a block's children
-- with --shuffle-tests or randomize() (test_running.lua). Seeded as busted
-- seeds it, the same seed gives the order busted gives.
local function busted_shuffle(t)
  local n = #t
  while n >= 2 do
    local k = math.random(n)
    t[n], t[k] = t[k], t[n]
    n = n - 1
  end
  return t
end
