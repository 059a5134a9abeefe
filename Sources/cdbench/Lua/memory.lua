-- cdbench memory: `...` countdowns with a hook; leaves the Lua heap's size
-- after them in the global lua_kb.
-- One options table for all: the figure is what a countdown keeps,
-- not the garbage of a million option tables.
local options = { seconds = 1e6, every = 0.1, on_tick = function(t) end }
local start = countdown.start
for i = 1, tonumber(...) do start(options) end
collectgarbage(); collectgarbage()
lua_kb = collectgarbage("count")
