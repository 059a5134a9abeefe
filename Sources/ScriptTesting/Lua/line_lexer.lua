-- Lua source read a line at a time, for the line scanner (line_scanner.lua):
-- each line's tokens, with what spans lines carried over (long comments and
-- strings, short strings continued with `\` or `\z`), and the `luacov:`
-- directives its comments hold. Only as much of Lua's lexer as judging lines
-- needs: numbers and names are told apart, not checked.
local LineLexer = {}
LineLexer.__index = LineLexer

local KEYWORDS = {}
for word in ([[and break do else elseif end false for function goto if in
  local nil not or repeat return then true until while]]):gmatch("%a+") do
  KEYWORDS[word] = true
end

-- Punctuation, longest first: the lexer takes the longest that fits.
local SYMBOLS = { "...", "..", "==", "~=", "<=", ">=", "//", "::", "<<", ">>" }

function LineLexer.new()
  return setmetatable({
    long = nil,         -- an open long bracket: { level = "==", comment = bool }
    quote = nil,        -- an open short string's quote, continued by `\` or `\z`
    skip_space = false, -- a `\z` at the end of the last line: skip leading space
  }, LineLexer)
end

-- The directive comments, matched on a short comment's text after `--`.
local function directive(text)
  if text:match("^%s*luacov:%s*disable%s*$") then return "disable" end
  if text:match("^%s*luacov:%s*enable%s*$") then return "enable" end
  return nil
end

-- Reads a long bracket's close from `pos`; returns the position after it or nil.
local function close_long(line, pos, level)
  local close = "]" .. level .. "]"
  local at = line:find(close, pos, true)
  return at and at + #close or nil
end

-- Reads a short string's body from `pos` (after the quote or a continued line);
-- returns the position after the closing quote, or nil and how it continues.
local function close_short(self, line, pos, quote)
  if self.skip_space then
    pos = line:find("[^ \t\r\v\f]", pos) or #line + 1
    if pos > #line then return nil, "z" end
    self.skip_space = false
  end
  while pos <= #line do
    local c = line:sub(pos, pos)
    if c == quote then return pos + 1 end
    if c == "\\" then
      local n = line:sub(pos + 1, pos + 1)
      if n == "" then return nil, "newline" end
      if n == "z" then
        local rest = line:find("[^ \t\r\v\f]", pos + 2)
        if not rest then return nil, "z" end
        pos = rest
      else
        pos = pos + 2
      end
    else
      pos = pos + 1
    end
  end
  return nil, nil -- not closed and not continued: Lua would refuse it; end it here
end

-- The tokens of one line, after what the last line left open. Each token is
-- { kind = "name" | "keyword" | "number" | "string" | "symbol", text = ... };
-- a string token carries `from_before` (it began on an earlier line) or `open`
-- (it goes on past this line). Also returns the line's comments' directives
-- and whether all of it lay inside a long comment or string.
function LineLexer:tokens(line)
  local tokens, directives = {}, {}
  local pos = 1

  if self.long then
    local after = close_long(line, 1, self.long.level)
    local was = self.long
    if not after then
      return tokens, directives, true
    end
    self.long = nil
    if not was.comment then
      tokens[#tokens + 1] = { kind = "string", text = "", from_before = true }
    end
    pos = after
  elseif self.quote then
    local quote = self.quote
    local after, how = close_short(self, line, 1, quote)
    if not after then
      if how == nil then self.quote = nil end
      self.skip_space = how == "z"
      tokens[#tokens + 1] = { kind = "string", text = "", from_before = true, open = how ~= nil }
      return tokens, directives, how ~= nil
    end
    self.quote = nil
    tokens[#tokens + 1] = { kind = "string", text = "", from_before = true }
    pos = after
  end

  while true do
    local from = pos
    pos = line:find("[^ \t\r\v\f]", pos)
    if not pos then break end
    local spaced = pos > from
    local c = line:sub(pos, pos)
    local count = #tokens
    if line:sub(pos, pos + 1) == "--" then
      local level = line:match("^%[(=*)%[", pos + 2)
      if level then
        local after = close_long(line, pos + 4 + #level, level)
        if not after then
          self.long = { level = level, comment = true }
          break
        end
        pos = after
      else
        directives[#directives + 1] = directive(line:sub(pos + 2))
        break
      end
    elseif c == "[" and line:match("^%[=*%[", pos) then
      local level = line:match("^%[(=*)%[", pos)
      local after = close_long(line, pos + 2 + #level, level)
      if not after then
        self.long = { level = level, comment = false }
        tokens[#tokens + 1] = { kind = "string", text = "", open = true, spaced = spaced }
        break
      end
      tokens[#tokens + 1] = { kind = "string", text = line:sub(pos, after - 1) }
      pos = after
    elseif c == '"' or c == "'" then
      local after, how = close_short(self, line, pos + 1, c)
      if not after then
        if how then
          self.quote = c
          self.skip_space = how == "z"
        end
        tokens[#tokens + 1] = { kind = "string", text = line:sub(pos), open = how ~= nil, spaced = spaced }
        break
      end
      tokens[#tokens + 1] = { kind = "string", text = line:sub(pos, after - 1) }
      pos = after
    elseif c:match("[%a_]") then
      local word = line:match("^[%w_]+", pos)
      tokens[#tokens + 1] = { kind = KEYWORDS[word] and "keyword" or "name", text = word }
      pos = pos + #word
    elseif c:match("%d") or line:match("^%.%d", pos) then
      local number = line:match("^0[xX][%x.]*[pP][+-]?%x*", pos)
        or line:match("^0[xX][%x.]*", pos)
        or line:match("^[%d.]*[eE][+-]?%d*", pos)
        or line:match("^[%d.]+", pos)
      number = number .. (line:match("^[%w_]*", pos + #number) or "")
      tokens[#tokens + 1] = { kind = "number", text = number }
      pos = pos + #number
    else
      local symbol = c
      for _, s in ipairs(SYMBOLS) do
        if line:sub(pos, pos + #s - 1) == s then symbol = s break end
      end
      tokens[#tokens + 1] = { kind = "symbol", text = symbol }
      pos = pos + #symbol
    end
    if tokens[count + 1] then tokens[count + 1].spaced = spaced end
  end
  return tokens, directives, false
end


return LineLexer
