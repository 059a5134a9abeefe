-- examples/sms_code.lua keeps its cooldown in memory only: killed mid-cooldown and started
-- again, it starts a whole cooldown afresh (examples/persistent_sms.lua is the one that keeps it;
-- persistent_sms_spec.lua). Run as a process of its own, on a virtual terminal of its own.

describe("examples/sms_code.lua killed mid-cooldown", function()
  it("starts a whole cooldown again when started again: nothing is stored", function()
    local app = process.start("examples/sms_code.lua")
    clock.advance(20.4)
    expect(app:get("status").text).to_be("Resend in 40s")
    expect(app:countdown("sms-resend"):remaining()).to_be_near(39.6, 0.05)
    app:restart()
    expect(app:get("status").text).to_be("Resend in 60s")
    expect(app:get("resend").enabled).to_be(false)
    expect(app:countdown("sms-resend"):remaining()).to_be_near(60, 0.05)
    expect(process.stored()).to_equal({})
  end)

  it("enables its button 60 s after the new start, not after the first", function()
    local app = process.start("examples/sms_code.lua")
    clock.advance(45)
    app:restart()
    clock.advance(59.9)
    expect(app:get("resend").enabled).to_be(false)
    clock.advance(0.1)
    expect(app:get("resend").enabled).to_be(true)
    expect(app:press("r")).to_be(true)
    expect(app:countdown("sms-resend"):remaining()).to_be_near(60, 0.05)
  end)
end)
