-- Forget a game that was archived: its stream, its due entry and its other keys, at once, and
-- only if the stream is still at the version that was archived and its chat at the message
-- archived last (a later append or message keeps it).
-- KEYS[1] stream; KEYS[2] the game's due set; KEYS[3] its chat; KEYS[4..] the game's other keys.
-- ARGV[1] the archived version; ARGV[2] game id; ARGV[3] the chat's last archived id ('0-0':
-- none). Returns 1 when dropped, 0 when kept.

if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) then
  return 0
end
local top = redis.call('XREVRANGE', KEYS[3], '+', '-', 'COUNT', 1)
local head = '0-0'
if top[1] then
  head = top[1][1]
end
if head ~= ARGV[3] then
  return 0
end
redis.call('ZREM', KEYS[2], ARGV[2] .. '@' .. ARGV[1])
redis.call('DEL', KEYS[1])
for i = 3, #KEYS do
  redis.call('DEL', KEYS[i])
end
return 1
