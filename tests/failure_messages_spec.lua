-- What a failing expect() says: tables that are equal but not the same, the
-- first key where tables differ, "nothing was raised", multi-line strings as lines.

local function failure_of(fn)
  local ok, failure = pcall(fn)
  assert.is_false(ok, "the expectation should have failed")
  return failure
end

describe("failure messages", function()
  it("to_be on two equal tables says they are not the same table", function()
    local f = failure_of(function() expect({ 1 }).to_be({ 1 }) end)
    assert.are.equal("expected {1} to be {1}: the tables are equal but not the same table (to_equal compares contents)", f.message)
  end)

  it("to_equal points at the first key that differs", function()
    local f = failure_of(function()
      expect({ { name = "x" }, { name = "b", n = 1 } }).to_equal({ { name = "x" }, { name = "a", n = 1 } })
    end)
    assert.are.equal('expected values to be equal\nat [2].name: expected "a", got "b"', f.message)
    assert.are.equal('{{name = "x"}, {n = 1, name = "a"}}', f.expected)
    f = failure_of(function() expect({ a = 1 }).to_equal({ a = 1, b = 2 }) end)
    assert.are.equal("expected values to be equal\nat b: expected 2, got nil", f.message)
    f = failure_of(function() expect(1).to_equal(2) end)
    assert.are.equal("expected values to be equal", f.message)
  end)

  it("to_throw says when nothing was raised", function()
    local f = failure_of(function() expect(function() end).to_throw("boom") end)
    assert.are.equal('expected the function to raise an error matching "boom", nothing was raised', f.message)
  end)

  it("multi-line strings are compared as lines, the differing ones marked", function()
    local f = failure_of(function() expect("a\nb\nc").to_equal("a\nB\nc\nd") end)
    assert.are.equal("expected strings to be equal: line 2 differs (- expected, + actual):\n" ..
      "  a\n- B\n+ b\n  c\n- d", f.message)
    assert.is_nil(f.expected)
    assert.is_nil(f.actual)
  end)
end)
