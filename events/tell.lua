-- Tell one player of a chat message of one game (entries no append made), at most once per
-- game until the player is here again, and without pushing any other entry out of the inbox.
-- KEYS[1] the player's inbox (a stream); KEYS[2] the games whose chat the player was told of
-- while away (a hash; presence deletes it when the player comes back); KEYS[3] the ids of the
-- chat entries in the inbox (a list, oldest first).
-- ARGV[1] the channel that hears of inbox entries ('' = none); ARGV[2] player id; ARGV[3] game
-- id; ARGV[4] the most chat entries the inbox holds; ARGV[5] how long KEYS[2] is kept (s);
-- ARGV[6..] entry JSON.
-- The inbox is trimmed by the relay only (relay.lua), to its length plus ARGV[4]: chat entries
-- never take a notice's place. The oldest chat entry makes way for a new one instead.
-- Each entry is published as '<player id>\n<entry id>\n<entry JSON>'. Returns how many.

if redis.call('HSETNX', KEYS[2], ARGV[3], 1) == 0 then
  return 0
end
redis.call('EXPIRE', KEYS[2], ARGV[5])
local most = tonumber(ARGV[4])
for i = 6, #ARGV do
  while redis.call('LLEN', KEYS[3]) >= most do
    redis.call('XDEL', KEYS[1], redis.call('LPOP', KEYS[3]))
  end
  local id = redis.call('XADD', KEYS[1], '*', 'd', ARGV[i])
  redis.call('RPUSH', KEYS[3], id)
  if ARGV[1] ~= '' then
    redis.call('PUBLISH', ARGV[1], ARGV[2] .. '\n' .. id .. '\n' .. ARGV[i])
  end
end
return #ARGV - 5
