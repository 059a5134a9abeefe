-- The start of every end claim script (RedisEndClaim.swift puts it before each):
-- reads the claim keys of one countdown, KEYS[1] the hash (end, changed, done,
-- and status: the exit status the claimant recorded with done),
-- KEYS[2] the lease ('owner token', with an expiry), KEYS[3] the token counter,
-- and refuses damage, naming the key and what is wrong, so that a claim never
-- fails with a bare Redis error that a caller would take for an outage and ask
-- again forever.
if redis.replicate_commands then redis.replicate_commands() end

local function kind_of(key) return redis.call('TYPE', key).ok end

-- A decimal integer that fits 64 bits, as the claim compares it.
local function is_int64(text)
  if type(text) ~= 'string' then return false end
  local digits = string.match(text, '^%-?(%d+)$')
  if not digits then return false end
  return #digits < 19 or (#digits == 19 and digits <= '9223372036854775807')
end

-- Tokens stay below 2^53, where Lua 5.1 numbers (Redis's scripts) are exact.
local function is_token(text)
  return type(text) == 'string' and string.match(text, '^%d+$') ~= nil and #text <= 16
    and tonumber(text) < 9007199254740992
end

-- The claim as stored: {exists, end, changed, done, status, holder, counter} (nil where
-- absent), or nil and the reply {3, key, problem}.
local function read_claim()
  local problems = {}
  local c = {}
  local hash_kind = kind_of(KEYS[1])
  if hash_kind == 'hash' then
    c.exists = true
    local f = redis.call('HMGET', KEYS[1], 'end', 'changed', 'done', 'status')
    c['end'], c.changed, c.done, c.status = f[1] or nil, f[2] or nil, f[3] or nil, f[4] or nil
    for i, field in ipairs({'end', 'changed'}) do
      local v = c[field]
      if v and not is_int64(v) then
        table.insert(problems, 'field ' .. field .. ' = ' .. v .. ': expected an integer (nanoseconds)')
      end
    end
    if c.done and c.done ~= '0' and c.done ~= '1' then
      table.insert(problems, 'field done = ' .. c.done .. ': expected 0 or 1')
    end
    if c.status and not (string.match(c.status, '^%-?%d+$') and #c.status <= 11
        and math.abs(tonumber(c.status)) <= 2147483647) then
      table.insert(problems, 'field status = ' .. c.status .. ': expected an exit status')
    end
    if #problems > 0 then return nil, {3, KEYS[1], table.concat(problems, '; ')} end
  elseif hash_kind ~= 'none' then
    return nil, {3, KEYS[1], 'is a ' .. hash_kind .. ', expected a hash'}
  end
  for i = 2, 3 do
    local k = kind_of(KEYS[i])
    if k ~= 'none' and k ~= 'string' then return nil, {3, KEYS[i], 'is a ' .. k .. ', expected a string'} end
  end
  c.holder = redis.call('GET', KEYS[2]) or nil
  if c.holder and not string.match(c.holder, '^.+ %d+$') then
    return nil, {3, KEYS[2], 'value ' .. c.holder .. ": expected 'owner token'"}
  end
  c.counter = redis.call('GET', KEYS[3]) or nil
  if c.counter and not is_token(c.counter) then
    return nil, {3, KEYS[3], 'value ' .. c.counter .. ': expected a whole number below 2^53'}
  end
  return c
end
