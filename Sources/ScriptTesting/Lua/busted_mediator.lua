-- busted's event bus (the `mediator` module busted publishes through), for
-- `require("busted")` in specs (prelude_busted.lua) and for output handlers
-- written in Lua (output_handler.lua). Returns a function that makes one.
-- A channel is a list of names ({"test", "end"}); publishing calls its
-- subscribers in priority order, then its parent channel's ({"test"}), then
-- the root's; a subscriber that does not return true as its second value
-- stops the rest.
return function()
  local channels = {}
  local last_id = 0

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
    last_id = last_id + 1
    -- busted's subscribers carry an id, which its unsubscribe takes with the channel.
    local sub = { fn = fn, options = options, list = list, id = last_id }
    local at = #list + 1
    if options.priority and options.priority >= 0 and options.priority < at then at = options.priority end
    table.insert(list, at, sub)
    return sub
  end

  -- unsubscribe(subscriber) or, as busted, unsubscribe(id, channel): the id
  -- is looked for in the channel and the channels under it.
  local function unsubscribe(sub, names)
    local id = type(sub) == "table" and sub.id or sub
    local prefix = type(names) == "table" and table.concat(names, "\0") or nil
    for key, list in pairs(channels) do
      if prefix == nil or key == prefix or key:sub(1, #prefix + 1) == prefix .. "\0" or prefix == "" then
        for i, s in ipairs(list) do
          if s == sub or s.id == id then return table.remove(list, i) end
        end
      end
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
