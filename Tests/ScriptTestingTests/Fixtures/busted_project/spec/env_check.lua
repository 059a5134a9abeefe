-- busted's environments: globals belong to the block or test that set them.

describe("a block's globals", function()
  block_global = "a"
  before_each(function() hook_global = "from before_each" end)
  it("are seen by its tests", function()
    assert.are.equal("a", block_global)
    assert.are.equal("from before_each", hook_global)
  end)
  it("a test's own globals", function() test_global = 1 end)
  it("are gone in the next test", function() assert.is_nil(test_global) end)
  it("and never reach _G", function() assert.is_nil(rawget(_G, "block_global")) end)
end)

describe("another block", function()
  it("does not see them", function()
    assert.is_nil(block_global)
    assert.is_nil(hook_global)
  end)
  it("a failing check of that", function() assert.are.equal("a", block_global) end)
end)
