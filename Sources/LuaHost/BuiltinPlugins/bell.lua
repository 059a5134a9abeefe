local M = { description = "rings the terminal bell when a countdown finishes" }

--- use("bell", {id = "tea"}): rings at done (of every countdown, or only `id`):
--- through the view while it is open full screen, else BEL on a terminal stdout.
function M.setup(options)
  check_options(options, { id = true })
  local function ring(t)
    if follows(options, t) then api.bell() end
  end
  return { remove = on("done", ring), ring = ring }
end
return M
