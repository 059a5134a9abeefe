local M = { description = "writes every event as a JSON line to a file" }

--- use("log", {path = "countdowns.jsonl", ticks = true})
--- Each line: {"event":"tick","id":"tea","remaining":12.5,"elapsed":47.5,"time":"2026-...Z"}
function M.setup(options)
  check_options(options, { id = true, path = true, ticks = true })
  if type(options.path) ~= "string" or options.path == "" then
    error("log: 'path' must be a file name, got " .. type(options.path), 2)
  end
  local warned = false
  local removers = {}
  for _, event in ipairs({ "start", "tick", "done", "cancel" }) do
    if event ~= "tick" or options.ticks ~= false then
      removers[#removers + 1] = on(event, function(t)
        if not follows(options, t) then return end
        local line = api.json({ event = event, id = t.id, remaining = t.remaining, elapsed = t.elapsed, time = api.wall_time() })
        local ok, err = api.append_line(options.path, line)
        if not ok and not warned then
          warned = true
          api.warn("cdscript log: " .. err)
        end
      end)
    end
  end
  return { remove = function() for _, remove in ipairs(removers) do remove() end end }
end
return M
