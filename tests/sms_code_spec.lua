-- The 60 s "resend code" button (tests/scripts/resend_button.lua;
-- examples_spec.lua runs the example itself).

describe("the resend button", function()
  it("is disabled for the whole cooldown and shows the seconds left", function()
    local button = load_script("scripts/resend_button.lua")
    expect(button.enabled).to_be(false)
    expect(button.text).to_be("Resend in 60s")
    clock.advance(1)
    expect(button.text).to_be("Resend in 59s")
    clock.advance(58)
    expect(button.text).to_be("Resend in 1s")
    expect(button.enabled).to_be(false)
  end)

  it("enables itself exactly when the 60 s are over", function()
    local button = load_script("scripts/resend_button.lua")
    clock.advance(59.999)
    expect(button.enabled).to_be(false)
    expect(button.press()).to_be(false)
    clock.advance(0.001)
    expect(button.enabled).to_be(true)
    expect(button.text).to_be("Resend code")
    expect(button.handle:state()).to_be("finished")
  end)

  it("starts the cooldown again when pressed, and only when enabled", function()
    local button = load_script("scripts/resend_button.lua")
    clock.advance(60)
    expect(button.press()).to_be(true)
    expect(button.sent).to_be(2)
    expect(button.enabled).to_be(false)
    expect(button.text).to_be("Resend in 60s")
    expect(button.press()).to_be(false)
    clock.advance(60)
    expect(button.enabled).to_be(true)
  end)

  it("takes its cooldown from the script's argument", function()
    local button = load_script("scripts/resend_button.lua", "5")
    local texts = { button.text }
    while clock.next() do texts[#texts + 1] = button.text end
    expect(texts).to_equal({
      "Resend in 5s", "Resend in 4s", "Resend in 3s", "Resend in 2s", "Resend in 1s", "Resend code",
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
