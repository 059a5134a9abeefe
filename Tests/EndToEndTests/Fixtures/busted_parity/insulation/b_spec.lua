-- Loaded second: with auto-insulate (busted's default) it sees nothing of a's;
-- without, a's module and _G global but not a's own globals.
describe("after a", function()
  it("sees a's module", function() assert.is_table(package.loaded.parity_loaded_once) end)
  it("sees a's _G global", function() assert.are.equal("a", parity_from_a) end)
  it("does not see a's own global", function() assert.is_nil(own_global_of_a) end)
end)
