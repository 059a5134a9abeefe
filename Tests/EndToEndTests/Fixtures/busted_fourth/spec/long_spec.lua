-- More than 200 M Lua instructions in one test (about two an iteration): busted
-- has no limit on them, and cdscript test no longer has one by default.
describe("a long test", function()
  it("sums 120 M numbers", function()
    local sum = 0
    for i = 1, 120000000 do sum = sum + i end
    assert.equal(7200000060000000, sum)
  end)
end)
