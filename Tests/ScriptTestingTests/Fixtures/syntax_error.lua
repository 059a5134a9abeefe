describe("never collected", function()
  it("has a syntax error", function()
    local x = = 1
  end)
end)
