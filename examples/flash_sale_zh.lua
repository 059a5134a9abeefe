-- 限时抢购: the flash sale in Chinese, as the shopping apps cdscript grew out of
-- show it. On screen: the heading 限时抢购 · 距结束还有, the time left as
-- 天/时/分/秒 with tenths ("2天 01时30分00.0秒", days only while there are any),
-- a progress bar, and a verification code line with a 重新发送 (resend) button
-- that stays disabled during its cooldown ("59秒后可重新发送") and enables itself
-- when the cooldown ends; r resends. When the sale ends: 抢购已结束 and the bell.
--
--   cdscript examples/flash_sale_zh.lua                                 # a 5 s demo sale
--   cdscript examples/flash_sale_zh.lua 2026-12-01T20:00:00+08:00       # a real deadline
--   cdscript examples/flash_sale_zh.lua 20:00 10                        # with a 10 s cooldown
--
-- Keys: r resends the code (when enabled), Space pauses and resumes, q quits.

local deadline = arg[1]
local cooldown = tonumber(arg[2]) or 60

local function clock_text(t)
  local pattern = t.days > 0 and "{d}天 {hh}时{mm}分{ss}.{t}秒" or "{hh}时{mm}分{ss}.{t}秒"
  return countdown.format(t, pattern)
end

view.title("限时抢购")
view.label{ id = "heading", text = "限时抢购 · 距结束还有", style = "bold yellow" }
view.label{ id = "clock", text = "--时--分--.-秒", style = "bold" }
view.progress{ id = "elapsed", value = 0 }
view.label{ id = "code", text = "" }

local start_cooldown
view.button{
  id = "resend", label = "重新发送", key = "r", enabled = false,
  on_press = function() start_cooldown() end,
}

function start_cooldown()
  view.set("resend", { enabled = false })
  countdown.start{
    id = "resend-cooldown",
    seconds = cooldown,
    every = 1,
    on_tick = function(t)
      view.set("code", { text = countdown.format(t, "验证码已发送，{S}秒后可重新发送") })
    end,
    on_done = function(_, reason)
      if reason == "finished" then
        view.set("code", { text = "没有收到验证码？" })
        view.set("resend", { enabled = true })
      end
    end,
  }
end

local options = {
  id = "flash-sale-zh",
  every = 0.1,
  on_tick = function(t)
    view.set("clock", { text = clock_text(t) })
    view.set("elapsed", { value = t.progress })
  end,
  on_done = function(t, reason)
    view.set("clock", { text = clock_text(t) })
    view.set("elapsed", { value = 1 })
    view.set("heading", { text = reason == "finished" and "抢购已结束" or "抢购已取消", style = "bold red" })
    if reason == "finished" then view.bell() end
  end,
}
if deadline then options.at = deadline else options.seconds = 5 end

start_cooldown()
return countdown.start(options)
