-- One match attempt in one quick-play pool: pick a group of waiting entries, take them out of
-- the pool and mark them matched to one new game, all at once (or change nothing but dropping
-- the entries of players who have gone). Every caller, in any process, runs this same script on
-- the same keys, so no entry is matched twice and a cancelled entry is never matched.
-- KEYS[1] the pool (entry ids by entry time, ms); KEYS[2] the pending matches (game ids by
-- when the sweep should open their table, ms); KEYS[3] the plan of this attempt's game (a hash).
-- ARGV[1] now (ms); ARGV[2] how long a player may stay unseen before its entry is dropped (ms);
-- ARGV[3] the oldest entries looked at; ARGV[4] how many of them may anchor a group; ARGV[5]
-- the game id a match gets; ARGV[6..8] the rating window: base, growth per second waited, most;
-- ARGV[9] an entry to try as the anchor first ('' none); ARGV[10] the entries' key prefix;
-- ARGV[11] the players' pointers' key prefix; ARGV[12] how long a finished entry is kept (s);
-- ARGV[13] how long the table may take to open before the sweep opens it (ms); ARGV[14] '1'
-- for a ranked pool; ARGV[15] the pool's edition.
-- A group: an anchor (tried oldest first) and the oldest entries that accept the same number
-- of seats, the largest number the anchor accepts first. In a ranked pool the spread of the
-- group's ratings is at most the window of its longest waiting member. When no group is full
-- and the anchor waited `bots_after` (unranked pools), it is seated with those that accept
-- bots, and bots fill the rest: the number of seats that seats the most people (the fewest
-- seats on a tie). An entry that asked for reliable players (`reliable_only`) is grouped only
-- with entries whose players were reliable when they entered (bots are).
-- Returns {} or {game id, seats, entry id...} (entry i sits at seat i - 1).

local now = tonumber(ARGV[1])
local gone = tonumber(ARGV[2])
local wbase, wgrowth, wmax = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local ranked = ARGV[14] == '1'
local prefix, pointers, keep = ARGV[10], ARGV[11], ARGV[12]

local function forget(id, player)
  redis.call('ZREM', KEYS[1], id)
  local pointer = pointers .. player
  if redis.call('GET', pointer) == id then
    redis.call('DEL', pointer)
  end
end

local function load(id)
  local f = redis.call('HMGET', prefix .. id, 'state', 'player', 'seats', 'bots_after', 'at',
    'seen', 'rating', 'bot', 'reliable', 'reliable_only')
  if f[1] ~= 'waiting' then
    redis.call('ZREM', KEYS[1], id)  -- matched, cancelled, or expired: nothing to keep
    return nil
  end
  if now - tonumber(f[6]) > gone then
    redis.call('HSET', prefix .. id, 'state', 'dropped')
    redis.call('EXPIRE', prefix .. id, keep)
    forget(id, f[2])
    return nil
  end
  local seats, accepts = {}, {}
  for n in string.gmatch(f[3], '%d+') do
    seats[#seats + 1] = tonumber(n)
    accepts[tonumber(n)] = true
  end
  return {id = id, player = f[2], seats = seats, accepts = accepts,
    bots_after = tonumber(f[4]), at = tonumber(f[5]), rating = tonumber(f[7]), bot = f[8],
    reliable = f[9] ~= '0', picky = f[10] == '1'}
end

local live = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[3]) - 1)) do
  local entry = load(id)
  if entry then
    live[#live + 1] = entry
  end
end

local anchors = {}
local first = nil
if ARGV[9] ~= '' then
  for _, entry in ipairs(live) do
    if entry.id == ARGV[9] then
      first = entry
    end
  end
  if not first and redis.call('ZSCORE', KEYS[1], ARGV[9]) then
    first = load(ARGV[9])
    if first then
      live[#live + 1] = first
    end
  end
  if first then
    anchors[1] = first
  end
end
for i = 1, math.min(#live, tonumber(ARGV[4])) do
  if live[i] ~= first then
    anchors[#anchors + 1] = live[i]
  end
end

local function group_for(anchor, n, with_bots)
  local group = {anchor}
  local low, high, oldest = anchor.rating, anchor.rating, anchor.at
  local reliable, picky = anchor.reliable, anchor.picky
  for _, other in ipairs(live) do
    if #group >= n then
      break
    end
    if other ~= anchor and other.accepts[n] and (not with_bots or other.bots_after >= 0) then
      -- who asked for reliable players gets only reliable ones
      local fits = (not picky or other.reliable) and (not other.picky or reliable)
      if fits and ranked then
        local l, h = math.min(low, other.rating), math.max(high, other.rating)
        local o = math.min(oldest, other.at)
        fits = h - l <= math.min(wmax, wbase + wgrowth * (now - o) / 1000)
        if fits then
          low, high, oldest = l, h, o
        end
      end
      if fits then
        group[#group + 1] = other
        reliable, picky = reliable and other.reliable, picky or other.picky
      end
    end
  end
  return group
end

local function seat(group, n, anchor)
  local game = ARGV[5]
  local ids = {}
  for i, entry in ipairs(group) do
    redis.call('HSET', prefix .. entry.id, 'state', 'matched', 'game', game, 'seat', i - 1,
      'matched_at', now)
    forget(entry.id, entry.player)
    ids[#ids + 1] = entry.id
  end
  redis.call('HSET', KEYS[3], 'edition', ARGV[15], 'seats', n, 'bot', anchor.bot,
    'ranked', ARGV[14], 'entries', table.concat(ids, ','), 'at', now)
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[13]), game)
  return {game, n, unpack(ids)}
end

for _, anchor in ipairs(anchors) do
  for i = #anchor.seats, 1, -1 do
    local n = anchor.seats[i]
    local group = group_for(anchor, n, false)
    if #group == n then
      return seat(group, n, anchor)
    end
  end
  if not ranked and anchor.bots_after >= 0 and now - anchor.at >= anchor.bots_after then
    local best, seats = nil, nil
    for _, n in ipairs(anchor.seats) do
      local group = group_for(anchor, n, true)
      if not best or #group > #best then
        best, seats = group, n
      end
    end
    return seat(best, seats, anchor)
  end
end
return {}
