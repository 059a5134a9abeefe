-- Many flash-sale items, one label each, all driven by the one shared scheduler
-- (no timer per item), with a summary line on top.
--
--   cdscript examples/many.lua            # 12 items ending within 5 s
--   cdscript examples/many.lua 5000 3     # 5000 items ending within 3 s
--
-- The view shows as many items as the terminal has rows for.

local items = tonumber(arg[1]) or 12
local longest = tonumber(arg[2]) or 5

local open_items = items

view.title("Flash sale items")
view.label{ id = "summary", text = ("%d of %d items open"):format(items, items), style = "bold" }

local function item_text(id, seconds)
  return ("%s ends in %s"):format(id, countdown.format(seconds, "{S}.{t}s"))
end

for i = 1, items do
  local id = "item-" .. i
  -- Spread the deadlines over (0, longest], in tenths.
  local seconds = (i % (longest * 10) + 1) / 10
  view.label{ id = id, text = item_text(id, seconds) }
  countdown.start{
    id = id,
    seconds = seconds,
    every = 1,
    on_tick = function(t) view.set(id, { text = item_text(id, t.remaining) }) end,
    on_done = function()
      open_items = open_items - 1
      view.set(id, { text = id .. " sold out", style = "dim" })
      view.set("summary", { text = ("%d of %d items open"):format(open_items, items) })
    end,
  }
end
