-- Which lines of a Lua file count in a coverage report, decided line by line
-- as luacov 0.17's reporter decides them (without cluacov, as every user of
-- Lua 5.4 runs it). Written here from what that reporter reports, recorded as
-- facts in Tests/ScriptTestingTests/Fixtures/luacov-facts (scripts/luacov-facts
-- records them with a copy of luacov kept outside this tree).
--
-- A line is one of three things:
--   "code"     it counts, run or not;
--   "maybe"    it counts only when it ran: lines that may hold no instruction
--              of their own (a table field, a closing brace, `x = function(a)`);
--   "nothing"  it never counts: blank lines, comments, a lone `end`, `else`,
--              `local x`, the parameter lines of a function's header, and
--              everything between `-- luacov: disable` and `-- luacov: enable`.
--
-- The scanner reads the file a line at a time through a LineLexer (which
-- carries long comments and strings over), keeping what else spans lines: a
-- function header whose parameters have not closed, and whether luacov is
-- disabled. `...` is the lexer's module (line_lexer.lua).
local LineLexer = ...
local LineScanner = {}
LineScanner.__index = LineScanner

function LineScanner.new()
  return setmetatable({
    lexer = LineLexer.new(),
    line_number = 0,
    header = nil,   -- nil, "name" (after `function`), "params" (inside its `(`)
    disabled = false,
  }, LineScanner)
end


local function symbol(t, text) return t ~= nil and t.kind == "symbol" and t.text == text end
local function keyword(t, word) return t ~= nil and t.kind == "keyword" and t.text == word end

local LITERAL_WORDS = { ["nil"] = true, ["true"] = true, ["false"] = true }

-- A value written out: a number, a string, nil, true or false.
local function literal(t)
  return t ~= nil and (t.kind == "number" or t.kind == "string" or (t.kind == "keyword" and LITERAL_WORDS[t.text]))
end

-- A literal or a name.
local function atom(t) return literal(t) or (t ~= nil and t.kind == "name") end

-- Tokens first..last are all (or, with `any`, hold any) of what `test` accepts.
local function all(tokens, first, last, test)
  for i = first, last do
    if not test(tokens[i]) then return false end
  end
  return true
end

-- `end` closing a block, followed by nothing but `)`, `,` and `;`.
local function lone_end(t, n)
  return keyword(t[1], "end") and all(t, 2, n, function(x)
    return symbol(x, ")") or symbol(x, ",") or symbol(x, ";")
  end)
end

-- `local a` or `local a, b` (`local a, b,` too, and any of them ending in a
-- dangling `=`): names declared without a value on this line.
local function bare_local(t, n)
  if not keyword(t[1], "local") or not (t[2] and t[2].kind == "name") then return false end
  local i, names = 3, 1
  while symbol(t[i], ",") and t[i + 1] and t[i + 1].kind == "name" do
    i, names = i + 2, names + 1
  end
  if symbol(t[i], ",") and names >= 2 then i = i + 1 end
  if symbol(t[i], "=") then i = i + 1 end
  return i == n + 1
end

-- From `i`: a parameter list `( a, b, ... )`, possibly not closed yet, and
-- nothing after it. Returns true when it holds, and whether it closed.
local function parameters(t, i, n)
  if i > n then return true, false end
  if not symbol(t[i], "(") then return false end
  for j = i + 1, n do
    if symbol(t[j], ")") then return j == n, true end
  end
  return true, false
end

-- `local function f(a, b)` with the body on later lines.
local function local_function_header(t, n)
  return keyword(t[1], "local") and keyword(t[2], "function") and t[3] ~= nil and t[3].kind == "name"
    and (parameters(t, 4, n))
end

-- A value alone: `x`, `1`, `"s"`, `nil`, `a.b`, `t[k]`, `{}`, `{`, `}`, `)`,
-- `function`.
local function lone_value(t, n)
  if n == 1 then
    local x = t[1]
    if x.kind == "string" and (x.from_before or x.open) then return false end
    return atom(x) or symbol(x, "{") or symbol(x, "}") or symbol(x, ")") or keyword(x, "function")
  end
  if n == 2 then return symbol(t[1], "{") and symbol(t[2], "}") end
  if t[1].kind ~= "name" then return false end
  if n == 3 then return symbol(t[2], ".") and t[3].kind == "name" end
  return n == 4 and symbol(t[2], "[") and atom(t[3]) and symbol(t[4], "]")
end

-- Closing brackets: `}` or `)`s, `})`, a literal then `}` (the last item of a
-- table), and `},`.
local function closers(t, n)
  if n == 2 and symbol(t[1], "}") and symbol(t[2], ",") then return true end
  local i = 1
  if literal(t[1]) and symbol(t[2], "}") then i = 2 end
  if symbol(t[i], "}") then i = i + 1 end
  while symbol(t[i], ")") do i = i + 1 end
  return i > 1 and i == n + 1
end

-- A table's field on a line of its own: `k = anything,` or `[k] = anything;`.
local function field(t, n)
  if not (symbol(t[n], ",") or symbol(t[n], ";")) then return false end
  if atom(t[1]) and symbol(t[2], "=") then return true end
  return symbol(t[1], "[") and atom(t[2]) and symbol(t[3], "]") and symbol(t[4], "=")
end

-- Items of a list: names, literals, commas and `=`, ending with a comma.
local function list_items(t, n)
  if symbol(t[1], "{") and symbol(t[2], "}") and symbol(t[3], ",") and n == 3 then return true end
  return n > 1 and symbol(t[n], ",") and all(t, 1, n, function(x) return atom(x) or symbol(x, ",") or symbol(x, "=") end)
end

-- Tokens first..last name one simple target: `x`, `a.b`, `t[k]`, `[k]` (a
-- field's key), a literal, each possibly after `local`.
local function target(t, first, last)
  if keyword(t[first], "local") then first = first + 1 end
  local count = last - first + 1
  if count == 1 then return atom(t[first]) end
  if count == 3 and t[first].kind == "name" then
    return symbol(t[first + 1], ".") and t[last].kind == "name"
  end
  if count == 3 then return symbol(t[first], "[") and atom(t[first + 1]) and symbol(t[last], "]") end
  return count == 4 and t[first].kind == "name" and symbol(t[first + 1], "[") and atom(t[first + 2])
    and symbol(t[last], "]")
end

-- A function value whose body starts on the next line: `x = function(a)`,
-- `return function()`, `function(a)`.
local function function_value(t, n)
  for f = 1, n do
    if keyword(t[f], "function") then
      local before = f == 1 or (f == 2 and keyword(t[1], "return"))
        or (f == 3 and symbol(t[1], "}") and symbol(t[2], ","))
        or (f > 2 and symbol(t[f - 1], "=") and target(t, 1, f - 2))
      return before and (parameters(t, f + 1, n))
    end
  end
  return false
end

-- A simple target given a string that goes on past this line: `x = [[`,
-- `local s = ([[`.
local function string_opened(t, n)
  if not (t[n].kind == "string" and t[n].open and not t[n].from_before) then return false end
  local i = n - 1
  while symbol(t[i], "(") do i = i - 1 end
  return i > 1 and symbol(t[i], "=") and target(t, 1, i - 1)
end

local function only_when_hit(t, n)
  return lone_value(t, n) or closers(t, n) or field(t, n) or list_items(t, n)
    or function_value(t, n) or string_opened(t, n)
    or (n == 4 and keyword(t[1], "local") and t[2].kind == "name" and symbol(t[3], "=") and keyword(t[4], "nil"))
    or (n == 2 and t[1].kind == "name" and atom(t[2])) -- a call without parentheses: `require "m"`
    or (n == 4 and t[1].kind == "name" and symbol(t[2], ".") and t[3].kind == "name"
      and t[4].kind == "string" and not t[4].spaced) -- `coroutine.yield"x"`, not `a.b "x"`
    or (n == 2 and keyword(t[1], "goto") and t[2].kind == "name")
    or (n == 3 and symbol(t[1], "::") and t[2].kind == "name" and symbol(t[3], "::"))
    or (n == 1 and keyword(t[1], "break"))
end

local ALONE_NOTHING = { ["else"] = true, ["then"] = true, ["do"] = true, ["repeat"] = true }

-- What a line is, by its tokens alone.
local function classify(t, n)
  if lone_end(t, n) or bare_local(t, n) or local_function_header(t, n) then return "nothing" end
  if n == 1 and t[1].kind == "keyword" and ALONE_NOTHING[t[1].text] then return "nothing" end
  -- `while true do` and `if true then`: luacov counts neither, though both hold code.
  if n == 3 and keyword(t[2], "true") and (keyword(t[1], "while") and keyword(t[3], "do")
    or keyword(t[1], "if") and keyword(t[3], "then")) then
    return "nothing"
  end
  if only_when_hit(t, n) then return "maybe" end
  return "code"
end

-- Where a function's header stands after tokens from..n: past the last
-- `function` (or, with `named`, from `from` on, as if one stood just before),
-- a parameter list not closed yet ("params"), or none begun yet ("name").
local function header_after(t, n, from, named)
  local last = named and from - 1 or nil
  for i = from, n do
    if keyword(t[i], "function") then last = i end
  end
  if not last then return nil end
  for i = last + 1, n do
    if symbol(t[i], "(") then
      for j = i + 1, n do
        if symbol(t[j], ")") then return nil end
      end
      return "params"
    end
  end
  return "name"
end

-- A line inside a header: parameters up to the `)` that closes them count as
-- nothing, and what follows that `)` is judged as a line of its own. Returns
-- the verdict, or nil when the whole line is judged as any other; either way
-- sets where the header stands after it.
function LineScanner:header_line(t, n)
  local state = self.header
  if state == "name" and not symbol(t[1], "(") then
    -- The function's name goes on (`.f(a,` after `function M`).
    self.header = header_after(t, n, 1, true)
    return nil
  end
  for i = 1, n do
    if symbol(t[i], ")") then
      self.header = header_after(t, n, i + 1)
      if i == n then return "nothing" end
      return classify(table.move(t, i + 1, n, 1, {}), n - i)
    end
  end
  self.header = "params"
  return "nothing"
end

--- Reads the next line of the file; returns "code", "maybe" or "nothing".
function LineScanner:consume(line)
  self.line_number = self.line_number + 1
  local was_disabled = self.disabled
  local t, directives, inside = self.lexer:tokens(line)
  for _, d in ipairs(directives) do self.disabled = d == "disable" end
  if was_disabled or #directives > 0 then return "nothing" end
  if self.line_number == 1 and line:sub(1, 2) == "#!" then return "nothing" end
  local n = #t
  if inside or n == 0 then return "nothing" end
  if n == 1 and t[1].kind == "string" and t[1].from_before then return "code" end
  if self.header then
    local verdict = self:header_line(t, n)
    if verdict then return verdict end
  else
    self.header = header_after(t, n, 1)
  end
  return classify(t, n)
end

return LineScanner
