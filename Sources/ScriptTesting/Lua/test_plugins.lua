-- `cdscript test`'s prelude, part 5 of 7: `plugin_calls`, what the plugins did in this test.
-- Plugins act on nothing real in tests: what they did is recorded instead.
function plugin_calls(name)
  if name ~= nil and type(name) ~= "string" then error("plugin_calls: expected a plugin name or nothing, got " .. type(name), 2) end
  return H.plugin_calls(name)
end
