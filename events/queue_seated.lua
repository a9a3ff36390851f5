-- A match's table is open and its players seated: their entries say at which version, and
-- the match is no longer pending (the sweep would otherwise open it).
-- KEYS[1] the pending matches (a sorted set); KEYS[2] the match's plan (a hash).
-- ARGV[1] game id; ARGV[2] the game's version; ARGV[3] how long a finished entry is kept (s);
-- ARGV[4] the entries' key prefix; ARGV[5..] the match's entry ids.
for i = 5, #ARGV do
  local entry = ARGV[4] .. ARGV[i]
  if redis.call('HGET', entry, 'game') == ARGV[1] then
    redis.call('HSET', entry, 'opened', ARGV[2])
    redis.call('EXPIRE', entry, ARGV[3])
  end
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return #ARGV - 4
