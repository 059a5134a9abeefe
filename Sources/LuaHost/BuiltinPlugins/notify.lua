local M = { description = "shows a desktop notification (notify-send) when a countdown finishes" }

--- use("notify", {title = "Tea", message = "ready", id = "tea"})
function M.setup(options)
  check_options(options, { id = true, title = true, message = true, program = true })
  for _, key in ipairs({ "title", "message", "program" }) do
    if options[key] ~= nil and type(options[key]) ~= "string" then
      error("notify: '" .. key .. "' must be a string, got " .. type(options[key]), 2)
    end
  end
  local program = options.program or "notify-send"
  local function notify(t)
    if not follows(options, t) then return end
    local body = options.message or (describe(t) .. " finished")
    local path = api.which(program)
    if not path then
      api.warn("cdscript notify: no desktop notification for " .. describe(t) .. ": " .. program ..
        " is not installed (on Debian: apt install libnotify-bin)")
      return
    end
    local ok, err = api.spawn({ path, options.title or "cdscript", body }, plugin)
    if not ok then api.warn("cdscript notify: no desktop notification for " .. describe(t) .. ": " .. err) end
  end
  return { remove = on("done", notify), notify = notify }
end
return M
