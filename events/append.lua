-- Atomic append of one command's events to one game stream, with what the game then waits on.
-- KEYS[1] stream; KEYS[2] the game's due set; KEYS[3] idempotency key (optional).
-- ARGV[1] expected version; ARGV[2] idempotency TTL (s); ARGV[3] request fingerprint;
-- ARGV[4] game id; ARGV[5] when a sweep should step in after this append ('' = nothing due);
-- ARGV[6] meta JSON ('' = none); ARGV[7] the channel that hears of appends ('' = none);
-- ARGV[8..] event JSON, one per event.
-- Entry ids are '<version>-0': the version is the 1-based position in the stream.
-- An append is published on the channel as '<game id>\n<first version>\n<event JSON>\n...'.
-- Returns {status, first version, last version, current version}; status is ok, duplicate
-- (the key's first append, same fingerprint), key-reused (another fingerprint) or conflict.

local current = redis.call('XLEN', KEYS[1])

if KEYS[3] then
  local seen = redis.call('GET', KEYS[3])
  if seen then
    local first, last, fingerprint = string.match(seen, '^(%d+):(%d+):(.*)$')
    local status = 'duplicate'
    if fingerprint ~= ARGV[3] then status = 'key-reused' end
    return {status, tonumber(first), tonumber(last), current}
  end
end

if current ~= tonumber(ARGV[1]) then
  return {'conflict', 0, 0, current}
end

local first = current + 1
for i = 8, #ARGV do
  current = current + 1
  if i == 8 and ARGV[6] ~= '' then
    redis.call('XADD', KEYS[1], string.format('%d-0', current), 'e', ARGV[i], 'm', ARGV[6])
  else
    redis.call('XADD', KEYS[1], string.format('%d-0', current), 'e', ARGV[i])
  end
end

if KEYS[3] then
  redis.call('SET', KEYS[3], first .. ':' .. current .. ':' .. ARGV[3], 'EX', ARGV[2])
end

redis.call('ZREM', KEYS[2], ARGV[4] .. '@' .. ARGV[1])
if ARGV[5] ~= '' then
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[4] .. '@' .. current)
end

if ARGV[7] ~= '' then
  redis.call('PUBLISH', ARGV[7], ARGV[4] .. '\n' .. first .. '\n' .. table.concat(ARGV, '\n', 8))
end

return {'ok', first, current, current}
