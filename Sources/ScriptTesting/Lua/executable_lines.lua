-- The lines of a Lua file that hold code, for coverage reports (lcov's LF, and
-- the lines luacov's reporter shows as missed): every line some instruction of
-- some function of the file maps to, read from the debug information of the
-- compiled chunk (Lua 5.4's string.dump format, as lundump.c reads it).
-- `...` is the file's path; returns the lines, one a line, or errors.
local path = ...
local chunk = assert(loadfile(path, "t"))
local s = string.dump(chunk)
local pos = 1

local function byte()
  local b = s:byte(pos)
  pos = pos + 1
  return b
end

local function varint()
  local x = 0
  repeat
    local b = byte()
    x = (x << 7) | (b & 0x7f)
  until b & 0x80 ~= 0
  return x
end

local function skip(n) pos = pos + n end

local function str()
  local size = varint()
  if size == 0 then return nil end
  local text = s:sub(pos, pos + size - 2)
  skip(size - 1)
  return text
end

-- Header: signature, version, format, LUAC_DATA, sizes, LUAC_INT, LUAC_NUM; upvalue count.
assert(s:sub(1, 4) == "\27Lua" and s:byte(5) == 0x54, "not a Lua 5.4 chunk")
pos = 5 + 1 + 1 + 6
local instruction_size = byte()
local integer_size = byte()
local number_size = byte()
skip(integer_size + number_size)
skip(1)

local lines = {}

local function func()
  str() -- source
  local linedefined = varint()
  varint() -- lastlinedefined
  skip(3) -- numparams, is_vararg, maxstacksize
  local ncode = varint()
  skip(ncode * instruction_size)
  for _ = 1, varint() do -- constants
    local t = byte()
    if t == 0x03 or t == 0x13 then skip(8) -- float, integer
    elseif t == 0x04 or t == 0x14 then str() -- short, long string
    end
  end
  skip(varint() * 3) -- upvalues: instack, idx, kind
  for _ = 1, varint() do func() end -- nested functions
  local nline = varint()
  local deltas = {}
  for i = 1, nline do
    local d = byte()
    deltas[i] = d >= 128 and d - 256 or d
  end
  local absolute = {}
  for _ = 1, varint() do
    local pc = varint()
    absolute[pc] = varint()
  end
  local line = linedefined
  for pc = 0, nline - 1 do
    local d = deltas[pc + 1]
    if d == -128 then line = absolute[pc] or line else line = line + d end
    if line > 0 then lines[line] = true end
  end
  for _ = 1, varint() do str() varint() varint() end -- local variables
  for _ = 1, varint() do str() end -- upvalue names
end

func()
local out = {}
for line in pairs(lines) do out[#out + 1] = line end
table.sort(out)
return table.concat(out, "\n")
