-- Thousands of flash-sale items, each with its own countdown, all driven by the
-- one shared scheduler (no timer per item). On screen: a summary that updates
-- every second ("N of M items open"), and the items closing next with the time
-- each has left ("item-20 closes in 0.1s"): the items of one tenth share one
-- deadline, counted from the instant the first item started.
--
--   cdscript examples/many.lua               # 2000 items closing within 10 s
--   cdscript examples/many.lua 100000 30 5   # 100000 items within 30 s; show the next 5

local items = tonumber(arg[1]) or 2000
local longest = tonumber(arg[2]) or 10
local shown = tonumber(arg[3]) or 8

local open_items = items
local handles, order = {}, {}
local tenths = longest * 10

view.title("Flash sale items")
view.label{ id = "summary", text = ("%d of %d items open"):format(items, items), style = "bold" }

-- Every deadline counts from one instant, so that the items of one tenth close
-- together however long starting a hundred thousand of them takes.
local began = countdown.now()
local function close()
  open_items = open_items - 1
end
for i = 1, items do
  -- Spread the deadlines over (0, longest], in tenths: item i closes at tenth i % tenths + 1.
  local at = (i % tenths + 1) / 10
  -- No on_tick: an item's countdown only schedules its end. No id either: the
  -- board finds each item by its handle, and a hundred thousand names would
  -- cost more to build than the countdowns (docs/performance.md).
  handles[i] = countdown.start{
    seconds = math.max(at - (countdown.now() - began), 0.001),
    on_done = close,
  }
end

-- Items in closing order (ties in start order) without sorting: tenth by tenth,
-- the items of tenth k are k - 1, k - 1 + tenths, k - 1 + 2 * tenths, ...
for k = 1, tenths do
  for i = k - 1, items, tenths do
    if i >= 1 then order[#order + 1] = i end
  end
end
local first = 1

local function next_text(rank)
  local i = order[first + rank - 1]
  if not i then return "" end
  -- To the nearest tenth: the board reads the items between their own ticks.
  local left = math.floor(handles[i]:remaining() * 10 + 0.5) / 10
  return ("item-%d closes in %s"):format(i, countdown.format(left, "{S}.{t}s"))
end

-- Past the items that closed, and those whose end is due but not yet reported
-- (starting many items takes a while, and the loop reports those ends at its
-- first pass): the board shows the items closing next.
local function skip_closed()
  while first <= #order do
    local h = handles[order[first]]
    local state = h:state()
    if (state == "running" or state == "paused") and h:remaining() >= 0.05 then break end
    first = first + 1
  end
end

skip_closed()
for rank = 1, shown do view.label{ id = "next-" .. rank, text = next_text(rank) } end

local function refresh()
  skip_closed()
  view.set("summary", { text = ("%d of %d items open"):format(open_items, items) })
  for rank = 1, shown do view.set("next-" .. rank, { text = next_text(rank) }) end
end

-- One more countdown drives the board: it ticks 20 ms after each whole second
-- from \`began\`, when the items of that second have closed (however late each
-- of them was started), and ends just after the last of them.
countdown.start{
  id = "board",
  -- (Should starting the items take longer than that, the board ends at once.)
  seconds = math.max(longest + 0.02 - (countdown.now() - began), 0.001),
  every = 1,
  on_tick = refresh,
  on_done = function()
    refresh()
    view.set("summary", { text = ("all %d items closed"):format(items) })
  end,
}
