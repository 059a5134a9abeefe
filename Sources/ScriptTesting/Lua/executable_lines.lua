-- The lines of a Lua file that count in coverage reports (lcov's DA lines, and
-- the lines luacov's reporter shows as hit or missed), as luacov 0.17's
-- reporter decides them on Lua 5.4: by the line scanner alone
-- (line_scanner.lua), line by line, whatever the compiled code holds.
--
-- `...` is a mode, its subject, and the sources of the lexer and the scanner:
--   "file", PATH: the lines of the file that count, one a line, "N", or "N?"
--     where the line counts only when it ran;
--   "each", TEXT: every line of TEXT judged alone, by a scanner of its own
--     (the recorded one-line facts): one letter a line, "C" (counts), "?"
--     (counts when it ran) or "-" (never counts).
local mode, subject, lexer_source, scanner_source = ...
local LineLexer = assert(load(lexer_source, "=line_lexer", "t"))()
local LineScanner = assert(load(scanner_source, "=line_scanner", "t"))(LineLexer)

local LETTER = { code = "C", maybe = "?", nothing = "-" }

if mode == "each" then
  local out = {}
  for line in (subject .. "\n"):gmatch("(.-)\n") do
    out[#out + 1] = LETTER[LineScanner.new():consume(line)]
  end
  if subject:sub(-1) == "\n" then out[#out] = nil end
  return table.concat(out)
end

local scanner = LineScanner.new()
local out = {}
local number = 0
for line in io.lines(subject) do
  number = number + 1
  local kind = scanner:consume(line)
  if kind == "code" then
    out[#out + 1] = tostring(number)
  elseif kind == "maybe" then
    out[#out + 1] = number .. "?"
  end
end
return table.concat(out, "\n")
