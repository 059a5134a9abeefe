-- Thousands of flash-sale items, each with its own countdown, all driven by the
-- one shared scheduler (no timer per item). On screen: a summary that updates
-- every second, and the items closing next.
--
--   cdscript examples/many.lua               # 2000 items closing within 10 s
--   cdscript examples/many.lua 100000 30 5   # 100000 items within 30 s; show the next 5

local items = tonumber(arg[1]) or 2000
local longest = tonumber(arg[2]) or 10
local shown = tonumber(arg[3]) or 8

local open_items = items
local handles, seconds, order = {}, {}, {}

view.title("Flash sale items")
view.label{ id = "summary", text = ("%d of %d items open"):format(items, items), style = "bold" }

for i = 1, items do
  -- Spread the deadlines over (0, longest], in tenths.
  seconds[i] = (i % (longest * 10) + 1) / 10
  order[i] = i
  -- No on_tick: an item's countdown only schedules its end.
  handles[i] = countdown.start{
    id = "item-" .. i,
    seconds = seconds[i],
    on_done = function() open_items = open_items - 1 end,
  }
end

-- Items in closing order (ties in start order), and the first one still open.
table.sort(order, function(a, b) return seconds[a] < seconds[b] or (seconds[a] == seconds[b] and a < b) end)
local first = 1

local function next_text(rank)
  local i = order[first + rank - 1]
  if not i then return "" end
  -- To the nearest tenth: the board reads the items between their own ticks.
  local left = math.floor(handles[i]:remaining() * 10 + 0.5) / 10
  return ("item-%d closes in %s"):format(i, countdown.format(left, "{S}.{t}s"))
end

for rank = 1, shown do view.label{ id = "next-" .. rank, text = next_text(rank) } end

local function refresh()
  while first <= items and handles[order[first]]:state() ~= "running" do first = first + 1 end
  view.set("summary", { text = ("%d of %d items open"):format(open_items, items) })
  for rank = 1, shown do view.set("next-" .. rank, { text = next_text(rank) }) end
end

-- One more countdown drives the board: started after the items, so at each
-- whole second it ticks after the items that closed at that instant.
countdown.start{
  id = "board",
  seconds = longest,
  every = 1,
  on_tick = refresh,
  on_done = function()
    refresh()
    view.set("summary", { text = ("all %d items closed"):format(items) })
  end,
}
