-- busted's event bus (the `mediator` module busted publishes through), for
-- `require("busted")` in specs (prelude_busted.lua) and for output handlers
-- written in Lua (output_handler.lua). Returns a function that makes one.
-- A channel is a list of names ({"test", "end"}); publishing calls its
-- subscribers in priority order, then its parent channel's ({"test"}), then
-- the root's; a subscriber that does not return true as its second value
-- stops the rest.
return function()
  local channels = {}

  local function channel_of(names)
    if type(names) ~= "table" then error("expected a channel as a table of names, such as {'test', 'end'}", 3) end
    local key = table.concat(names, "\0")
    local list = channels[key]
    if not list then list = {} channels[key] = list end
    return list
  end

  local function subscribe(names, fn, options)
    local list = channel_of(names)
    options = options or {}
    local sub = { fn = fn, options = options, list = list }
    local at = #list + 1
    if options.priority and options.priority >= 0 and options.priority < at then at = options.priority end
    table.insert(list, at, sub)
    return sub
  end

  local function unsubscribe(sub)
    if type(sub) ~= "table" or not sub.list then return end
    for i, s in ipairs(sub.list) do
      if s == sub then return table.remove(sub.list, i) end
    end
  end

  local function publish(names, ...)
    local results = {}
    for depth = #names, 0, -1 do
      local list = channels[table.concat(names, "\0", 1, depth)]
      for _, sub in ipairs(list and { table.unpack(list) } or {}) do
        if not sub.options.predicate or sub.options.predicate(...) then
          local value, continue = sub.fn(...)
          if value then results[#results + 1] = value end
          if not continue then return results end
        end
      end
    end
    return results
  end

  return {
    subscribe = subscribe,
    unsubscribe = unsubscribe,
    publish = publish,
    listened = function() return next(channels) ~= nil end,
  }
end
