-- Written for busted and run unchanged by both `busted` (Lua 5.4) and
-- `cdscript test`: no cdscript globals here, only busted's blocks and
-- luassert's assertions, spies, stubs and matchers. BustedCompatTests runs it
-- under both and compares.

describe("a queue (a library as busted users test one)", function()
  local Queue = {}
  Queue.__index = Queue
  function Queue.new() return setmetatable({ first = 1, last = 0, items = {} }, Queue) end
  function Queue:push(v) self.last = self.last + 1 self.items[self.last] = v end
  function Queue:pop()
    if self.first > self.last then error("queue is empty", 2) end
    local v = self.items[self.first]
    self.items[self.first] = nil
    self.first = self.first + 1
    return v
  end

  local q
  before_each(function() q = Queue.new() end)

  it("pops in push order", function()
    q:push("a")
    q:push("b")
    assert.are.equal("a", q:pop())
    assert.are.equal("b", q:pop())
  end)

  it("starts empty in every test", function()
    assert.has_error(function() q:pop() end, "queue is empty")
  end)

  context("with a spy", function()
    it("sees every push", function()
      local s = spy.on(q, "push")
      q:push(1)
      q:push({ 2 })
      assert.spy(s).was.called(2)
      assert.spy(s).was.called_with(match.is_ref(q), match.is_table())
      s:revert()
    end)
  end)

  describe("with a stub", function()
    it("answers what it is told", function()
      stub(q, "pop").returns("stubbed")
      assert.are.equal("stubbed", q:pop())
      assert.stub(q.pop).was.called(1)
      q.pop:revert()
    end)
  end)
end)

describe("hook order", function()
  local log = {}
  setup(function() log[#log + 1] = "setup" end)
  before_each(function() log[#log + 1] = "before" end)
  after_each(function() log[#log + 1] = "after" end)

  it("runs setup once, then before_each", function()
    finally(function() log[#log + 1] = "finally" end)
    assert.are.same({ "setup", "before" }, log)
  end)

  it("and after_each after finally", function()
    assert.are.same({ "setup", "before", "finally", "after", "before" }, log)
  end)

end)
