-- Starting an id that is active replaces that countdown.

describe("replacement by id", function()
  it("replaces the active countdown; its hooks are not called", function()
    local old_done, new_done = spy(), spy()
    local old = countdown.start{ id = "offer", seconds = 10, on_done = old_done }
    clock.advance(4)
    local new = countdown.start{ id = "offer", seconds = 30, on_done = new_done }
    expect(old_done.count).to_be(0)
    expect(old:state()).never.to_be("running")
    expect(countdown.get("offer")).to_be(new)
    expect(#countdown.list()).to_be(1)
    clock.advance(30)
    expect(old_done.count).to_be(0)
    expect(new_done.count).to_be(1)
  end)

  it("leaves other ids alone", function()
    local a = countdown.start{ id = "a", seconds = 5 }
    countdown.start{ id = "b", seconds = 5 }
    countdown.start{ id = "b", seconds = 9 }
    expect(a:state()).to_be("running")
    expect(#countdown.list()).to_be(2)
    expect(countdown.get("b"):remaining()).to_be(9)
  end)

  it("lets an ended id be used again", function()
    countdown.start{ id = "x", seconds = 1 }
    clock.advance(1)
    expect(countdown.get("x")).to_be(nil)
    local again = countdown.start{ id = "x", seconds = 2 }
    expect(countdown.get("x")).to_be(again)
  end)
end)
