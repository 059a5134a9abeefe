-- require 'busted': read-only, and unsubscribe stops delivery.
local busted = require("busted")

describe("the busted module", function()
  it("refuses a new field", function()
    assert.has_error(function() busted.anything = 1 end)
  end)
  it("refuses to replace a function", function()
    assert.has_error(function() busted.subscribe = function() end end)
  end)
  it("stops delivering to a subscriber that unsubscribed", function()
    local calls = 0
    local sub = busted.subscribe({ "parity", "event" }, function() calls = calls + 1 return nil, true end)
    busted.publish({ "parity", "event" })
    busted.unsubscribe(sub.id, { "parity", "event" })
    busted.publish({ "parity", "event" })
    assert.are.equal(1, calls)
  end)
end)
