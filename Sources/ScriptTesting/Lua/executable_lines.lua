-- The lines of a Lua file that count in coverage reports (lcov's DA lines, and
-- the lines luacov's reporter shows as hit or missed), decided as luacov's
-- reporter decides with cluacov: a line counts when luacov's line scanner does
-- not exclude it (luacov_linescanner.lua: comments, blank lines, a lone `end`,
-- `local x`, ...; some lines only when they never ran) and some instruction of
-- some function of the file maps to it (its "active lines", read from the debug
-- information of the compiled chunk: Lua 5.4's string.dump format, as lundump.c
-- reads it; a vararg function's first instruction, VARARGPREP, does not count,
-- as in Lua 5.4.4's own active lines, so that a comment on line 1 is no code).
-- `...` is the file's path and the scanner's source; returns the lines that
-- count, one a line, "N" or "N?" (counts only when it ran).
local path, scanner_source = ...
local LineScanner = assert(load(scanner_source, "=luacov_linescanner", "t"))()

local function scanned(active)
  local out = {}
  local scanner = LineScanner:new()
  local number = 0
  for line in io.lines(path) do
    number = number + 1
    local always_excluded, excluded_when_not_hit = scanner:consume(line)
    if not always_excluded and (active == nil or active[number]) then
      out[#out + 1] = number .. (excluded_when_not_hit and "?" or "")
    end
  end
  return table.concat(out, "\n")
end

-- A file that does not compile (it changed since it ran): luacov's reporter
-- without cluacov goes by the scanner alone.
local chunk = loadfile(path, "t")
if not chunk then return scanned(nil) end
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
  skip(1) -- numparams
  local is_vararg = byte() ~= 0
  skip(1) -- maxstacksize
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
    if line > 0 and not (is_vararg and pc == 0) then lines[line] = true end
  end
  for _ = 1, varint() do str() varint() varint() end -- local variables
  for _ = 1, varint() do str() end -- upvalue names
end

func()
return scanned(lines)
