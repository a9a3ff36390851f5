-- Put a player's entry in a quick-play pool, unless the player waits in one already.
-- KEYS[1] the entry (a hash); KEYS[2] the pool (a sorted set of entry ids by entry time, ms);
-- KEYS[3] the set of pools that may hold entries; KEYS[4] the player's pointer to its entry.
-- ARGV[1] entry id; ARGV[2] entry time (ms); ARGV[3] the pool's name; ARGV[4..] field, value.
-- Returns {1, id} when entered, {0, the waiting entry's id} when the player waits already.
local current = redis.call('GET', KEYS[4])
if current then
  return {0, current}
end
local fields = {}
for i = 4, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('SET', KEYS[4], ARGV[1])
return {1, ARGV[1]}
