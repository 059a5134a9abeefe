-- busted's `arg`: the interpreter at arg[-1] everywhere, and an interpreter
-- that runs a plain Lua file with arguments as lua5.4 does.
local top_interpreter = arg[-1]
local top_first = arg[1]

local function interpreter()
  local first = 0
  while arg[first - 1] do first = first - 1 end
  return arg[first]
end

describe("arg", function()
  local in_describe = arg[-1]
  it("has the interpreter at the top level", function()
    assert.are.equal("string", type(top_interpreter))
    assert.are.equal(top_interpreter, in_describe)
    assert.are.equal(top_interpreter, arg[-1])
  end)
  it("has the command line from 1", function()
    assert.are.equal(top_first, arg[1])
    assert.is_truthy(arg[1])
  end)
  it("runs a plain Lua file with arguments as lua5.4 does", function()
    local dir = os.getenv("PWD") or "."
    local script = os.tmpname()
    local f = assert(io.open(script, "w"))
    f:write([[
      io.write("args:", #arg, ":", arg[1], ":", arg[2], ":", select("#", ...), "\n")
      io.write("negative:", tostring(arg[-1] ~= nil), "\n")
      local line = io.read("l")
      io.write("stdin:", tostring(line), "\n")
      os.exit(tonumber(arg[1]))
    ]])
    f:close()
    local out = os.tmpname()
    local cmd = string.format("echo hello | %q %q 3 two > %q", interpreter(), script, out)
    local ok, how, code = os.execute(cmd)
    local r = assert(io.open(out))
    local text = r:read("a")
    r:close()
    os.remove(script)
    os.remove(out)
    assert.are.equal("args:2:3:two:2\nnegative:true\nstdin:hello\n", text)
    assert.are.same({ nil, "exit", 3 }, { ok, how, code })
  end)
end)
