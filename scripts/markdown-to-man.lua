-- Turns Markdown pages into one man page, so that a reference written once in docs/
-- is also `man 7 cdscript-api` (scripts/install runs it with the cdscript binary it
-- installs, which runs plain Lua files as lua5.4 does).
--
--   cdscript scripts/markdown-to-man.lua NAME SECTION PAGE.md... > NAME.SECTION
--
-- The subset the docs pages use: headings (the first `#` is the page's NAME line,
-- later `#` are sections, `##` subsections, deeper ones bold lines), paragraphs,
-- `-` lists, tables (a tagged paragraph per row: the first cell is the tag, the
-- others the text), fenced and indented code, `inline code`, **bold**, and links.
-- A link keeps its target in words: a web address in <>, a section of these pages
-- as (see "Heading"), another docs page as (docs/PAGE.md, "Heading"). A link to a
-- section that does not exist stops the conversion, so a broken link is found here.
local name, section = arg[1], arg[2]
if not name or not section or not arg[3] then
  io.stderr:write("usage: markdown-to-man.lua NAME SECTION PAGE.md...\n")
  os.exit(64)
end

local out = {}
local function emit(line) out[#out + 1] = line end

-- roff text: a backslash is \e, a line may not start with a control character.
local function escape(text)
  text = text:gsub("\\", "\\e")
  text = text:gsub("%-", "\\-")
  return text
end
local function guard(line)
  if line:match("^[.']") then return "\\&" .. line end
  return line
end

-- The pages this man page is made of, by file name, and the page being converted.
local here, current = {}, nil
for n = 3, #arg do here[arg[n]:match("[^/]+$")] = arg[n] end

-- A heading's anchor as GitHub makes it: lower case, punctuation dropped (bytes
-- above 127 too: the docs' only non-ASCII in headings is punctuation such as →),
-- spaces made hyphens.
local function slug(text)
  return (text:lower():gsub("[^%w%s_%-]", ""):gsub("%s", "-"))
end

-- Every heading of the page at `path`: anchor -> its text without backticks; and
-- the page's first heading (its title).
local heading_cache = {}
local function headings(path)
  if heading_cache[path] then return heading_cache[path] end
  local file = io.open(path, "r")
  if not file then
    io.stderr:write("markdown-to-man.lua: a link in ", current, " leads to ", path, ", which does not exist\n")
    os.exit(1)
  end
  local found, title, fenced, seen = {}, nil, false, {}
  for line in file:lines() do
    if line:match("^%s*```") then fenced = not fenced end
    local text = not fenced and line:match("^#+%s+(.*)$")
    if text then
      text = text:gsub("`", "")
      local anchor = slug(text)
      -- a repeated heading's anchor gets -1, -2, ... as on GitHub
      if seen[anchor] then seen[anchor] = seen[anchor] + 1; anchor = anchor .. "-" .. seen[anchor] else seen[anchor] = 0 end
      found[anchor] = text
      title = title or text
    end
  end
  file:close()
  heading_cache[path] = { sections = found, title = title }
  return heading_cache[path]
end

-- What a link to `target` reads as after its label, in words.
local function destination(label, target)
  if target:match("^%a[%w+.-]*:") then return " <" .. target .. ">" end
  local file, anchor = target:match("^([^#]*)#?(.*)$")
  local folder = current:match("^(.*)/[^/]*$") or "."
  local path = file == "" and current or (folder .. "/" .. file)
  local within = file == "" or here[file] ~= nil
  local read = within and file ~= "" and here[file] or path
  local found = headings(read)
  local section = anchor == "" and found.title or found.sections[anchor]
  if not section then
    io.stderr:write("markdown-to-man.lua: a link in ", current, " leads to ", target, ", a section that ", read, " does not have\n")
    os.exit(1)
  end
  if within then
    if slug(label:gsub("`", "")) == slug(section) then return " (a section of this page)" end
    return ' (see "' .. section .. '")'
  end
  local shown = (folder:match("[^/]+$") or ".") .. "/" .. file
  return anchor == "" and (" (" .. shown .. ")") or (" (" .. shown .. ', "' .. section .. '")')
end

local function inline(text)
  -- links: [text](target) -> text and where it leads (destination); first, as the
  -- text may hold `code`
  text = text:gsub("%[([^%]]+)%]%(([^)%s]+)%)", function(label, target)
    return label .. destination(label, target)
  end)
  local parts = {}
  local i = 1
  while i <= #text do
    local tick = text:find("`", i, true)
    local plain = text:sub(i, (tick or #text + 1) - 1)
    plain = escape(plain)
    plain = plain:gsub("%*%*(.-)%*%*", "\\fB%1\\fR")
    parts[#parts + 1] = plain
    if not tick then break end
    local close = text:find("`", tick + 1, true)
    if not close then
      parts[#parts + 1] = escape(text:sub(tick))
      break
    end
    parts[#parts + 1] = "\\fB" .. escape(text:sub(tick + 1, close - 1)) .. "\\fR"
    i = close + 1
  end
  return guard(table.concat(parts))
end

local function cells(row)
  local list = {}
  row = row:gsub("^%s*|", ""):gsub("|%s*$", "")
  -- a `|` inside backticks or escaped as \| is text, not a border
  local current, code = {}, false
  local i = 1
  while i <= #row do
    local c = row:sub(i, i)
    if c == "\\" and row:sub(i + 1, i + 1) == "|" then
      current[#current + 1] = "|"; i = i + 1
    elseif c == "`" then
      code = not code; current[#current + 1] = c
    elseif c == "|" and not code then
      list[#list + 1] = table.concat(current):match("^%s*(.-)%s*$"); current = {}
    else
      current[#current + 1] = c
    end
    i = i + 1
  end
  list[#list + 1] = table.concat(current):match("^%s*(.-)%s*$")
  return list
end

local first_title = true
local function heading(level, text)
  if level == 1 and first_title then
    first_title = false
    emit(".TH " .. name:upper() .. " " .. section .. ' "" "cdscript" "cdscript manual"')
    emit(".nh")  -- no hyphens inside names such as countdown.format
    emit(".ad l")
    emit(".SH NAME")
    emit(name .. " \\- " .. escape(text:gsub("`", "")))
  elseif level == 1 then
    emit(".SH " .. escape((text:gsub("`", "")):upper()))
  elseif level == 2 then
    emit(".SS " .. inline(text))
  else
    emit(".PP")
    emit("\\fB" .. inline(text) .. "\\fR")
  end
end

local function code(lines)
  emit(".PP")
  emit(".RS 4")
  emit(".nf")
  for _, line in ipairs(lines) do emit(guard(escape(line))) end
  emit(".fi")
  emit(".RE")
end

local function page(path)
  local file = assert(io.open(path, "r"))
  local lines = {}
  for line in file:lines() do lines[#lines + 1] = line end
  file:close()

  local i, paragraph = 1, {}
  local function flush()
    if #paragraph > 0 then
      emit(".PP")
      emit(inline(table.concat(paragraph, " ")))
      paragraph = {}
    end
  end
  while i <= #lines do
    local line = lines[i]
    local hashes, title = line:match("^(#+)%s+(.*)$")
    local fence = line:match("^%s*```")
    if hashes then
      flush(); heading(#hashes, title); i = i + 1
    elseif fence then
      flush()
      local indent = #line:match("^(%s*)")
      local body = {}
      i = i + 1
      while i <= #lines and not lines[i]:match("^%s*```%s*$") do
        body[#body + 1] = lines[i]:sub(indent + 1)
        i = i + 1
      end
      code(body); i = i + 1
    elseif line:match("^    ") and #paragraph == 0 then
      local body = {}
      while i <= #lines and (lines[i]:match("^    ") or (lines[i] == "" and (lines[i + 1] or ""):match("^    "))) do
        body[#body + 1] = lines[i]:sub(5)
        i = i + 1
      end
      code(body)
    elseif line:match("^%s*|") then
      flush()
      local header = cells(line)
      i = i + 1
      if (lines[i] or ""):match("^%s*|[%s%-:|]+$") then i = i + 1 end
      while i <= #lines and lines[i]:match("^%s*|") do
        local row = cells(lines[i])
        emit(".TP 8")
        emit(inline(row[1] or ""))
        local rest = {}
        for c = 2, #row do
          if row[c] ~= "" and row[c] ~= "—" then
            rest[#rest + 1] = (#row > 2 and header[c] ~= "" and (header[c] .. ": ") or "") .. row[c]
          end
        end
        emit(inline(table.concat(rest, "; ")))
        i = i + 1
      end
    elseif line:match("^%s*[-*] ") or line:match("^%s*%d+%. ") then
      flush()
      local number = line:match("^%s*(%d+)%. ")
      local item = { (line:gsub("^%s*[-*] ", ""):gsub("^%s*%d+%. ", "")) }
      i = i + 1
      while i <= #lines and lines[i]:match("^%s%s+%S") and not lines[i]:match("^%s*[-*] ")
        and not lines[i]:match("^%s*%d+%. ") and not lines[i]:match("^%s*```") do
        item[#item + 1] = lines[i]:match("^%s*(.-)$")
        i = i + 1
      end
      emit(number and (".IP " .. number .. ". 4") or ".IP \\(bu 2")
      emit(inline(table.concat(item, " ")))
    elseif line:match("^%s*$") then
      flush(); i = i + 1
    else
      paragraph[#paragraph + 1] = line:match("^%s*(.-)%s*$")
      i = i + 1
    end
  end
  flush()
end

for n = 3, #arg do current = arg[n]; page(arg[n]) end
emit(".SH SEE ALSO")
emit("\\fBcdscript\\fR(1)")
io.write(table.concat(out, "\n"), "\n")
