describe("collection", function()
  it("is fine", function() end)
  local config = nil
  local _ = config.missing -- raises while the file is being collected
end)
describe("after", function()
  it("still runs", function() end)
end)
