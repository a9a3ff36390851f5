-- A waiting player is still here: refresh its entry's `seen` (ms).
-- KEYS[1] the entry, or the player's pointer to it when ARGV[3] is '1' (the entry's key is
-- then ARGV[2] followed by the id it holds). ARGV[1] now (ms).
-- Returns 1 when a waiting entry was touched.
local entry = KEYS[1]
if ARGV[3] == '1' then
  local id = redis.call('GET', KEYS[1])
  if not id then
    return 0
  end
  entry = ARGV[2] .. id
end
if redis.call('HGET', entry, 'state') ~= 'waiting' then
  return 0
end
redis.call('HSET', entry, 'seen', ARGV[1])
return 1
