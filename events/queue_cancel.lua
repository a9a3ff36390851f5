-- Cancel a waiting entry: it leaves its pool and will never be matched.
-- KEYS[1] the entry; KEYS[2] its pool; KEYS[3] its player's pointer.
-- ARGV[1] entry id; ARGV[2] how long a finished entry is kept (s).
-- Returns the entry's state after it ('cancelled', or 'matched'/'dropped' left as they were;
-- '' for an unknown entry).
local state = redis.call('HGET', KEYS[1], 'state')
if not state then
  return ''
end
if state ~= 'waiting' then
  return state
end
redis.call('HSET', KEYS[1], 'state', 'cancelled')
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('GET', KEYS[3]) == ARGV[1] then
  redis.call('DEL', KEYS[3])
end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 'cancelled'
