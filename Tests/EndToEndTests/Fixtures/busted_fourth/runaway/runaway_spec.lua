describe("runaway", function()
  it("loops forever", function()
    while true do end
  end)

  it("runs after it", function()
    assert.is_true(true)
  end)
end)
