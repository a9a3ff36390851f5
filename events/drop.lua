-- Forget a game that was archived: its stream, its due entry and its other keys, at once, and
-- only if the stream is still at the version that was archived (a later append keeps it).
-- KEYS[1] stream; KEYS[2] the game's due set; KEYS[3..] the game's other keys.
-- ARGV[1] the archived version; ARGV[2] game id. Returns 1 when dropped, 0 when kept.

if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZREM', KEYS[2], ARGV[2] .. '@' .. ARGV[1])
redis.call('DEL', KEYS[1])
for i = 3, #KEYS do
  redis.call('DEL', KEYS[i])
end
return 1
