-- Run with --lpath=./lpath/?.lua: busted's default ./src/?.lua is replaced, so
-- `require "mod"` finds ./mod.lua on lua5.4's own path, not ./src/mod.lua.
describe("module paths", function()
  it("finds the lpath's module", function()
    assert.equal("lpath", require("other"))
  end)

  it("finds mod where busted finds it", function()
    assert.equal(os.getenv("EXPECT_MOD") or "root", require("mod"))
  end)
end)
