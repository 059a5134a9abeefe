-- busted's sugar: a block or test given its name alone returns the function
-- that takes its body; one given only a function is named after its kind.
describe 'sugar' (function()
  it 'passes' (function() assert.is_true(true) end)
  it 'fails' (function() assert.are.equal(1, 2) end)
  context 'nested' (function()
    test 'runs' (function() assert.is_truthy("yes") end)
  end)
  it(function() assert.is_true(true) end)
  describe(function()
    spec 'inside an unnamed describe' (function() end)
  end)
end)
pending 'is pending'
