-- Marks a claim's action done (after end_claim_keys.lua). KEYS: hash, lease,
-- counter, cdscript:epoch. ARGV: owner, token, end, changed, the epoch the claim
-- was made under ('': unknown), the action's exit status ('': none, kept so).
-- Returns {1} when marked, {0} when
-- the claim is no longer this one's, {3, key, problem} on damage, {4} when the
-- server no longer holds the claim.
local c, damage = read_claim()
if damage then return damage end
-- Gone, or made again on a server that lost its data since the claim.
if not c.exists or (ARGV[5] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[5]) then return {4} end
if c['end'] ~= ARGV[3] or c.changed ~= ARGV[4] or c.done == '1' then return {0} end
if c.holder == ARGV[1] .. ' ' .. ARGV[2] or (not c.holder and c.counter == ARGV[2]) then
  redis.call('HSET', KEYS[1], 'done', '1')
  if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'status', ARGV[6]) end
  redis.call('DEL', KEYS[2])
  return {1}
end
return {0}
