-- Record one finished game in its edition's ratings, once: its record, every seated player's
-- statistics and, for a rated game, their ratings, leaderboard scores and histories.
-- KEYS[1] ratings (hash player -> JSON); KEYS[2] leaderboard (sorted set, mu - 3 sigma);
-- KEYS[3] rated games (sorted set by end, Unix ms); KEYS[4] records (hash game key -> JSON);
-- KEYS[5] meta (hash: `seq`, bumped by every rated game); then per player its history (list)
-- and its statistics (hash): KEYS[6], KEYS[7] for the first player, and so on.
-- ARGV[1] game key; ARGV[2] its end (Unix ms); ARGV[3] its record JSON; ARGV[4] the `seq` its
-- ratings were computed on ('' for an unrated game); ARGV[5] 1 to replace every rating (a game
-- that ends before one already rated: ratings folded again), else 0; then per player: id,
-- rating JSON ('' unrated), leaderboard score, history (a JSON list of entry JSON texts, pushed
-- as they are; replacing the history when ARGV[5] is 1), statistics JSON (counters to add; '' none).
-- Returns 1 recorded, -1 recorded before, -2 another game was rated since `seq` (compute again).

if redis.call('HEXISTS', KEYS[4], ARGV[1]) == 1 then
  return -1
end
if ARGV[4] ~= '' then
  local seq = tonumber(redis.call('HGET', KEYS[5], 'seq') or '0')
  if seq ~= tonumber(ARGV[4]) then
    return -2
  end
  redis.call('HINCRBY', KEYS[5], 'seq', 1)
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
end
redis.call('HSET', KEYS[4], ARGV[1], ARGV[3])
local n = 0
for i = 6, #ARGV, 5 do
  local history, stats = KEYS[6 + n * 2], KEYS[7 + n * 2]
  local player = ARGV[i]
  if ARGV[i + 1] ~= '' then
    redis.call('HSET', KEYS[1], player, ARGV[i + 1])
    redis.call('ZADD', KEYS[2], ARGV[i + 2], player)
    local entries = cjson.decode(ARGV[i + 3])
    if ARGV[5] == '1' then
      redis.call('DEL', history)
    end
    for _, entry in ipairs(entries) do
      redis.call('RPUSH', history, entry)
    end
  end
  if ARGV[i + 4] ~= '' then
    for name, count in pairs(cjson.decode(ARGV[i + 4])) do
      redis.call('HINCRBY', stats, name, count)
    end
  end
  n = n + 1
end
return 1
