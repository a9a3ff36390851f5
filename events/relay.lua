-- Tell one player of one append of one game, at most once: write its inbox entries, bind the
-- game to the player, list it in the player's games, count a seat the player lost to a bot. All
-- keys are the player's.
-- KEYS[1] the player's inbox (a stream); KEYS[2] the last version of each game relayed to them
-- (a hash); KEYS[3] the player's record (a hash); KEYS[4] the player's games (a sorted set);
-- KEYS[5] the player's push subscriptions (a hash); KEYS[6] the player's games indexed for
-- "my games" (a sorted set), KEYS[7..] the same, one per status (see events/mygames.py).
-- ARGV[1] game id; ARGV[2] the append's last version; ARGV[3] the inbox's length (about);
-- ARGV[4] the game's score in the player's games (first bound, Unix ms); ARGV[5] the channel
-- that hears of inbox entries ('' = none); ARGV[6] player id; ARGV[7] 1 to bind the game to
-- the player; ARGV[8] seats lost to a bot in this append (0 or 1); ARGV[9] the game's status
-- in the index ('' = left as it is, '-' = taken out); ARGV[10] its score there; ARGV[11..]
-- entry JSON.
-- A version of a game at or below the last one relayed is skipped: relays are repeated safely
-- (the sweep repairs one a crash lost) and an older one never comes after a newer one.
-- Each entry is published as '<player id>\n<entry id>\n<entry JSON>'.
-- Returns {entries written (-1: already relayed), 1 if the player has a webhook else 0,
-- 1 if the player has a push subscription else 0}.

local hook = redis.call('HEXISTS', KEYS[3], 'webhook_url')
local push = redis.call('EXISTS', KEYS[5])
local last = redis.call('HGET', KEYS[2], ARGV[1])
if last and tonumber(last) >= tonumber(ARGV[2]) then
  return {-1, hook, push}
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ARGV[7] == '1' then
  redis.call('ZADD', KEYS[4], 'NX', ARGV[4], ARGV[1])
end
if ARGV[9] == '-' then
  redis.call('ZREM', KEYS[6], ARGV[1])
elseif ARGV[9] ~= '' then
  redis.call('ZADD', KEYS[6], ARGV[10], ARGV[1])
end
if ARGV[9] ~= '' then
  local status = KEYS[6] .. ':' .. ARGV[9]
  for i = 7, #KEYS do
    if KEYS[i] == status then
      redis.call('ZADD', KEYS[i], ARGV[10], ARGV[1])
    else
      redis.call('ZREM', KEYS[i], ARGV[1])
    end
  end
end
if ARGV[8] ~= '0' then
  redis.call('HINCRBY', KEYS[3], 'games_abandoned', ARGV[8])
end
for i = 11, #ARGV do
  local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'd', ARGV[i])
  if ARGV[5] ~= '' then
    redis.call('PUBLISH', ARGV[5], ARGV[6] .. '\n' .. id .. '\n' .. ARGV[i])
  end
end
return {#ARGV - 10, hook, push}
