-- The end-action runner (EndActions.swift loads it once, on the first end with an
-- `on_end_action`). One end is settled here after this process's on_done: run
-- by the process that claimed it, waited on by the others, taken over by one of
-- them when the claimant's lease passes without the action marked done.
local H, countdown = ...
-- Captured now: a script may replace these later.
local start, now = countdown.start, countdown.now
local pcall, type, tostring, min, max = pcall, type, tostring, math.min, math.max
local tointeger = math.tointeger

-- How often a pending action (one that returned a function) is asked whether it
-- is done, and how often a process that waits asks the store.
local POLL, WAIT, RETRY = 0.25, 0.5, 1

local function after(seconds, fn)
  start{ seconds = max(seconds, 0.1), every = 86400, on_done = function(_, why)
    if why == "finished" then fn() else H.settled() end
  end }
end

-- `end_at` and `changed` name the end as the store holds it (its deadline and the
-- stamp of the change that finished it); nil until a claim named it.
return function(action, id, lease, kind, value, end_at, changed)
  local try

  -- Marks the action done, with its exit status when it gave one (an integer: the
  -- processes that wait on the end report it too); a store out of reach is asked
  -- again until it answers.
  local function finish(token, status)
    -- A number with an integer value; text ("3") is no status.
    status = type(status) == "number" and tointeger(status) or nil
    local ok, err = H.finish(id, end_at, changed, token, status)
    if ok == nil then return after(RETRY, function() finish(token, status) end) end
    if not ok then
      H.failed(id, "its lease passed before the action was marked done (" .. tostring(err or "another process claimed the end")
        .. "); another process may run it again (token " .. token .. ")")
    end
    H.settled()
  end

  local function run(token)
    local ok, result = pcall(action, { id = id, token = token, ended_at = end_at / 1e9 })
    if not ok then
      -- It ran (in part): running it again elsewhere could repeat what it did.
      H.failed(id, tostring(result))
      return finish(token)
    end
    -- An integer returned is the action's exit status.
    if type(result) ~= "function" then return finish(token, result) end
    -- A pending action: asked every POLL seconds; the lease renewed every third of it.
    local renewed = now()
    local function poll()
      -- A pending action answers true when it is done, and may add its exit status.
      local polled, finished, status = pcall(result)
      if not polled then H.failed(id, tostring(finished)) end
      if not polled then return finish(token) end
      if finished then return finish(token, status) end
      if now() - renewed >= lease / 3 then
        -- nil: the store cannot be reached, asked again next time; false: lost.
        local held, why = H.renew(id, end_at, changed, token, lease)
        if held then renewed = now() end
        if held == false then
          H.failed(id, "its lease passed while the action ran (" .. tostring(why or "another process claimed the end")
            .. "); another process may run it too (token " .. token .. ")")
          return H.settled()
        end
      end
      after(min(POLL, lease / 3), poll)
    end
    return poll()
  end

  -- Every later claim names the end this one was told about: a process that
  -- waited never claims a later end of the countdown instead.
  local function claimed(outcome, a, b, c)
    if outcome == "won" or outcome == "held" then end_at, changed = b, c end
    if outcome == "won" then return run(a) end
    if outcome == "held" then return after(min(a + 0.05, WAIT), try) end
    if outcome == "unavailable" then return after(RETRY, try) end
    if outcome == "damaged" then H.unclaimable(id, a) end
    -- Done elsewhere: the claimant's exit status, when it recorded one, is this process's too.
    if outcome == "done" and a ~= nil then H.ran_elsewhere(id, a) end
    H.settled()
  end

  try = function() return claimed(H.claim(id, end_at, changed, lease)) end

  return claimed(kind, value, end_at, changed)
end
