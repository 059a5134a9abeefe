-- examples/flash_sale_zh.lua on the virtual clock and a virtual 80x24 terminal:
-- what it shows, not only that it runs.

local function line_with(screen, text)
  for line in (screen .. "\n"):gmatch("(.-)\n") do
    if line:find(text, 1, true) then return line end
  end
end

describe("examples/flash_sale_zh.lua", function()
  it("counts down in 天/时/分/秒 with tenths, days only while there are any", function()
    clock.set_wall("2026-11-29T18:30:00+08:00")
    load_script("examples/flash_sale_zh.lua", "2026-12-01T20:00:00+08:00")
    expect(view.get("clock").text).to_be("2天 01时30分00.0秒")
    clock.advance(0.1)
    expect(view.get("clock").text).to_be("2天 01时29分59.9秒")
    clock.set_wall("2026-12-01T19:59:58+08:00")
    clock.advance(0.1)
    expect(view.get("clock").text).to_be("00时00分01.9秒")
  end)

  it("fills its progress bar and ends with 抢购已结束 and the bell", function()
    local sale = load_script("examples/flash_sale_zh.lua", nil, "10")
    expect(view.get("heading").text).to_be("限时抢购 · 距结束还有")
    expect(view.get("clock").text).to_be("00时00分05.0秒")
    clock.advance(2.5)
    expect(view.get("elapsed").value).to_be_near(0.5, 1e-9)
    expect(view.screen():find("50%", 1, true)).never.to_be(nil)
    clock.advance(2.5)
    expect(view.get("heading").text).to_be("抢购已结束")
    expect(view.get("elapsed").value).to_be(1)
    expect(sale:state()).to_be("finished")
  end)

  it("keeps 重新发送 disabled for its cooldown, then enables it; r sends again", function()
    load_script("examples/flash_sale_zh.lua", nil, "10")
    expect(view.get("code").text).to_be("验证码已发送，10秒后可重新发送")
    expect(view.get("resend").enabled).to_be(false)
    expect(view.press("r")).to_be(false)
    clock.advance(9)
    expect(view.get("code").text).to_be("验证码已发送，1秒后可重新发送")
    clock.advance(1)
    expect(view.get("code").text).to_be("没有收到验证码？")
    expect(view.get("resend").enabled).to_be(true)
    expect(view.press("r")).to_be(true)
    expect(view.get("code").text).to_be("验证码已发送，10秒后可重新发送")
    expect(view.get("resend").enabled).to_be(false)
  end)

  it("draws the Chinese text centred by its width on the screen", function()
    load_script("examples/flash_sale_zh.lua", nil, "10")
    local screen = view.screen()
    -- 限时抢购 · 距结束还有 is 21 columns wide: (80 - 21) // 2 = 29 blanks before it.
    expect(line_with(screen, "限时抢购")).to_be(string.rep(" ", 29) .. "限时抢购 · 距结束还有")
    -- 00时00分05.0秒 is 14 columns: 33 blanks.
    expect(line_with(screen, "05.0秒")).to_be(string.rep(" ", 33) .. "00时00分05.0秒")
    -- [ 重新发送 (r) ] is 16 columns.
    expect(line_with(screen, "[ 重新发送")).to_be(string.rep(" ", 32) .. "[ 重新发送 (r) ]")
    -- 验证码已发送，10秒后可重新发送 is 30 columns.
    expect(line_with(screen, "验证码")).to_be(string.rep(" ", 25) .. "验证码已发送，10秒后可重新发送")
  end)
end)
