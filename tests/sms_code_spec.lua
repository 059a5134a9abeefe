-- The 60 s "resend code" button (examples/sms_code.lua).

describe("the resend button", function()
  it("is disabled for the whole cooldown and shows the seconds left", function()
    load_script("examples/sms_code.lua")
    expect(printed()).to_equal({ "[  disabled ] Resend in 60s" })
    clock.advance(1)
    expect(printed()[2]).to_be("[  disabled ] Resend in 59s")
    clock.advance(58.9)
    local lines = printed()
    expect(#lines).to_be(60)
    expect(lines[60]).to_be("[  disabled ] Resend in 1s")
    for _, line in ipairs(lines) do
      expect(line).never.to_be("[Resend code] enabled")
    end
  end)

  it("enables itself exactly when the 60 s are over", function()
    local button = load_script("examples/sms_code.lua")
    clock.advance(59.999)
    expect(button:state()).to_be("running")
    clock.advance(0.001)
    expect(printed()[#printed()]).to_be("[Resend code] enabled")
    expect(button:state()).to_be("finished")
    expect(countdown.get("sms-resend")).to_be(nil)
  end)

  it("takes its cooldown from the script's argument", function()
    load_script("examples/sms_code.lua", "5")
    clock.run_all()
    expect(printed()).to_equal({
      "[  disabled ] Resend in 5s",
      "[  disabled ] Resend in 4s",
      "[  disabled ] Resend in 3s",
      "[  disabled ] Resend in 2s",
      "[  disabled ] Resend in 1s",
      "[Resend code] enabled",
    })
  end)

  it("calls its done hook once, with the finished reason", function()
    local done = spy()
    countdown.start{ id = "sms-resend", seconds = 60, on_done = done }
    clock.advance(120)
    expect(done.count).to_be(1)
    expect(done.calls[1][2]).to_be("finished")
    expect(done.calls[1][1].remaining).to_be(0)
  end)
end)
