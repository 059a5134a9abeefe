local M = { description = "keeps a file holding the text a script shows, replaced whole on every change (for OBS's text source)" }

--- local out = use("outfile", {path = "time.txt"}); out.write("24:59")
--- Each new text replaces the file whole (a temporary file, then a rename), so a
--- reader never sees half of one; the same text again writes nothing. Says once
--- why when it cannot write, and goes on trying.
function M.setup(options)
  check_options(options, { path = true })
  if type(options.path) ~= "string" or options.path == "" then
    error("outfile: 'path' must be a file name, got " .. type(options.path), 2)
  end
  local last, warned
  local function write(text)
    text = tostring(text)
    if text == last then return end
    local ok, err = api.replace_file(options.path, text)
    if ok then
      last = text
    elseif not warned then
      warned = true
      api.warn("cdscript outfile: " .. err)
    end
  end
  return { write = write, remove = function() end }
end
return M
