local M = { description = "a file a script writes for others to read: replaced whole on every change (OBS's text source), or added to a line at a time" }

--- local out = use("outfile", {path = "time.txt"}); out.write("24:59")
--- Each new text replaces the file whole (a temporary file, then a rename), so a
--- reader never sees half of one; the same text again writes nothing.
--- out.append(line) adds a line to the file instead (created when missing), so
--- what was written stays when the run is gone (the stopwatch's --laps-file).
--- Says once why when it cannot write, and goes on trying.
function M.setup(options)
  check_options(options, { path = true })
  if type(options.path) ~= "string" or options.path == "" then
    error("outfile: 'path' must be a file name, got " .. type(options.path), 2)
  end
  local last, warned
  local function failed(err)
    if warned then return end
    warned = true
    api.warn("cdscript outfile: " .. err)
  end
  local function write(text)
    text = tostring(text)
    if text == last then return end
    local ok, err = api.replace_file(options.path, text)
    if ok then last = text else failed(err) end
  end
  local function append(line)
    local ok, err = api.append_line(options.path, tostring(line), plugin)
    if not ok then failed(err) end
    return ok == true
  end
  return { write = write, append = append, remove = function() end }
end
return M
