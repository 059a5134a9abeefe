-- Renews a claim's lease (after end_claim_keys.lua). KEYS: hash, lease, counter,
-- cdscript:epoch. ARGV: owner, token, lease ms, end, changed, the epoch the claim
-- was made under ('': unknown). The lease is extended while it is
-- this claim's, or set again when it passed and nobody claimed since (the
-- counter still at this token). Returns {1} renewed, {0} no longer this claim's,
-- {3, key, problem} on damage, {4} when the server no longer holds the claim.
local c, damage = read_claim()
if damage then return damage end
-- Gone, or made again on a server that lost its data since the claim.
if not c.exists or (ARGV[6] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[6]) then return {4} end
if c['end'] ~= ARGV[4] or c.changed ~= ARGV[5] or c.done == '1' then return {0} end
local mine = ARGV[1] .. ' ' .. ARGV[2]
if c.holder == mine or (not c.holder and c.counter == ARGV[2]) then
  redis.call('SET', KEYS[2], mine, 'PX', ARGV[3])
  return {1}
end
return {0}
