-- Claims one end (after end_claim_keys.lua). KEYS: hash, lease, counter, the
-- countdowns' hash. ARGV: id, owner, lease ms, expected end and changed ('' and
-- '': the end the stored record names now).
-- Returns {0, token, end, changed} when claimed, {1, lease ms left, end, changed}
-- when held, {2} when done or over ({2, status} when done and the claimant
-- recorded its exit status), {3, key, problem} on damage.
local c, damage = read_claim()
if damage then return damage end

-- The end the stored record names now: a finished record's deadline and the
-- stamp of the change that finished it, on the server's clock, as stored.
local current_end, current_changed
local records_kind = kind_of(KEYS[4])
if records_kind == 'hash' then
  local record = redis.call('HGET', KEYS[4], ARGV[1])
  if record then
    -- The 8 fields, then nothing or the tagged ones (a title, actions) after a '|'.
    local rest
    current_end, current_changed, rest = string.match(record, '^1|finished|[^|]*|(%-?%d+)|[^|]*|[^|]*|[^|]*|(%-?%d+)(.*)$')
    if rest ~= nil and rest ~= '' and string.sub(rest, 1, 1) ~= '|' then current_end, current_changed = nil, nil end
  end
elseif records_kind ~= 'none' then
  return {3, KEYS[4], 'is a ' .. records_kind .. ', expected a hash'}
end

local want_end, want_changed = ARGV[4], ARGV[5]
if want_end == '' then
  if current_end then
    want_end, want_changed = current_end, current_changed
  elseif c['end'] and c.changed then
    want_end, want_changed = c['end'], c.changed
  else
    return {2}
  end
end

if c['end'] == want_end and c.changed == want_changed then
  if c.done == '1' then return {2, c.status} end
  local left = redis.call('PTTL', KEYS[2])
  if left > 0 then return {1, left, want_end, want_changed} end
else
  -- Only the end the record names now is claimed anew: any other is over.
  if want_end ~= current_end or want_changed ~= current_changed then return {2} end
  redis.call('HSET', KEYS[1], 'end', want_end, 'changed', want_changed, 'done', '0')
  redis.call('HDEL', KEYS[1], 'status')
  redis.call('DEL', KEYS[2])
end

-- A counter that is gone (a server that lost its data, or a first claim) starts
-- at the server's time in microseconds: a token after the loss is still larger
-- than any handed out before it.
if not c.counter then
  local t = redis.call('TIME')
  redis.call('SET', KEYS[3], t[1] .. string.format('%06d', tonumber(t[2])))
end
redis.call('INCR', KEYS[3])
-- The token as text: Lua 5.1 would print a large number in exponent form.
local token = redis.call('GET', KEYS[3])
redis.call('SET', KEYS[2], ARGV[2] .. ' ' .. token, 'PX', ARGV[3])
return {0, token, want_end, want_changed}
