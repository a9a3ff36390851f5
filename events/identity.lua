-- Point an identity of the trusted issuer at another player, if it still names the one the
-- caller decided on (a compare-and-set of one key).
-- KEYS[1] the identity's key; ARGV[1] the player it must name now ('' = none); ARGV[2] the
-- player it names from now on.
-- Returns 1 when it was moved, else 0 (another request moved it first: decide again).

local current = redis.call('GET', KEYS[1])
if (current or '') ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2])
return 1
