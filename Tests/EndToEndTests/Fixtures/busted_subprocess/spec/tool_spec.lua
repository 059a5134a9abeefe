-- The tool run as a subprocess, covered the way luacov's users ask for it.
local lua = arg[-1]
if package.loaded["luacov.runner"] then
  lua = lua .. " -lluacov"
end

local function run(argument)
  local p = io.popen(lua .. " bin/tool.lua " .. argument .. " 2>&1")
  local out = p:read("a")
  local _, _, code = p:close()
  return out, code
end

describe("tool", function()
  it("sums", function()
    local out, code = run("4")
    assert.equal("10\n", out)
    assert.equal(0, code)
  end)

  it("refuses a negative number with exit 2", function()
    local out, code = run("-1")
    assert.equal("tool: negative\n", out)
    assert.equal(2, code)
  end)

  it("runs four at once, all counted", function()
    local running = {}
    for i = 1, 4 do running[i] = io.popen(lua .. " bin/tool.lua " .. i) end
    for i = 1, 4 do
      assert.equal(tostring(i * (i + 1) // 2) .. "\n", running[i]:read("a"))
      running[i]:close()
    end
  end)

  it("sees luacov's runner only under coverage", function()
    assert.equal(os.getenv("EXPECT_LUACOV") == "1", package.loaded["luacov.runner"] ~= nil)
  end)
end)
