-- The interpreter in `arg`, found as teal's spec/util.lua finds it (the lowest
-- negative index) and run as it runs it: `INTERPRETER -e STATEMENT FILE ARGS`.
-- Under busted it is lua5.4; under cdscript test, cdscript-lua. The output,
-- the exit codes and the shape of an error must be the same.
local function interpreter()
  local first = 0
  while arg[first - 1] do first = first - 1 end
  return arg[first]
end

local function quoted(text)
  return "'" .. text:gsub("'", "'\\''") .. "'"
end

local function file_with(text)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

local function contents(path)
  local f = assert(io.open(path))
  local text = f:read("a")
  f:close()
  os.remove(path)
  return text
end

-- Runs `INTERPRETER words...` (with `stdin` piped in, if given): exit code, stdout, stderr.
local function run(words, stdin)
  local parts = { quoted(interpreter()) }
  for _, word in ipairs(words) do parts[#parts + 1] = quoted(word) end
  local out, err = os.tmpname(), os.tmpname()
  local command = table.concat(parts, " ") .. " > " .. quoted(out) .. " 2> " .. quoted(err)
  if stdin then command = "printf '%s' " .. quoted(stdin) .. " | " .. command end
  local _, how, code = os.execute(command)
  assert.are.equal("exit", how)
  return code, contents(out), contents(err)
end

describe("the interpreter in arg", function()
  it("runs -e, then a file with its arguments in arg and in ...", function()
    local script = file_with('print(greeting, select("#", ...), arg[0] == SCRIPT, arg[-1], arg[-2], ...)')
    local code, out, err = run({ "-e", "greeting = 'hi'", "-e", "SCRIPT = " .. string.format("%q", script), script, "a", "b c" })
    os.remove(script)
    assert.are.same({ 0, "hi\t2\ttrue\tSCRIPT = " .. string.format("%q", script) .. "\t-e\ta\tb c\n", "" }, { code, out, err })
  end)

  it("finds modules on a package.path set by -e, as teal's specs set it", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. quoted(dir)))
    local f = assert(io.open(dir .. "/greeter.lua", "w"))
    f:write('return { hello = function(name) return "hello, " .. name end }')
    f:close()
    local script = file_with('print(require("greeter").hello(arg[1]))')
    local code, out = run({ "-e", "package.path = " .. string.format("%q", dir .. "/?.lua;") .. " .. package.path", script, "teal" })
    os.remove(script)
    os.execute("rm -r " .. quoted(dir))
    assert.are.same({ 0, "hello, teal\n" }, { code, out })
  end)

  it("exits with os.exit's code", function()
    local script = file_with('io.write("before ") if arg[1] == "true" then os.exit(true) elseif arg[1] == "false" then os.exit(false) end os.exit(tonumber(arg[1]))')
    local results = {}
    for _, how in ipairs({ "0", "5", "true", "false" }) do
      local code, out = run({ script, how })
      results[#results + 1] = how .. "=" .. code .. ":" .. out
    end
    os.remove(script)
    assert.are.same({ "0=0:before ", "5=5:before ", "true=0:before ", "false=1:before " }, results)
  end)

  it("writes an uncaught error as PROGRAM: message with a traceback, and exits 1", function()
    local script = file_with('local function deep() error("boom") end\ndeep()\n')
    local code, out, err = run({ script })
    os.remove(script)
    assert.are.equal(1, code)
    assert.are.equal("", out)
    local first = interpreter() .. ": " .. script .. ":1: boom\nstack traceback:\n\t[C]: in function 'error'\n"
    assert.are.equal(first, err:sub(1, #first))
    assert.is_truthy(err:find("in local 'deep'", 1, true), err)
  end)

  it("says a file it cannot open, and exits 1", function()
    local code, out, err = run({ "/nonexistent/nothing.lua" })
    assert.are.same({ 1, "", interpreter() .. ": cannot open /nonexistent/nothing.lua: No such file or directory\n" }, { code, out, err })
  end)

  it("runs the chunk on stdin for -, with the arguments after it", function()
    local code, out = run({ "-", "x", "y" }, 'print("stdin", ...)')
    assert.are.same({ 0, "stdin\tx\ty\n" }, { code, out })
  end)
end)
