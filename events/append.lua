-- Atomic append of one command's events to one game stream, with what the game then waits on.
-- KEYS[1] stream; KEYS[2] the game's due set; KEYS[3], KEYS[4]: below.
-- ARGV[1] expected version; ARGV[2] idempotency TTL (s); ARGV[3] request fingerprint;
-- ARGV[4] game id; ARGV[5] when a sweep should step in after this append ('' = nothing due);
-- ARGV[6] meta JSON ('' = none); ARGV[7] this append's stamp; ARGV[8] the stamp expected on
-- the entry at the expected version ('' = not checked); ARGV[9] the channel that hears of
-- appends ('' = none); ARGV[10] when it was appended (Unix milliseconds); ARGV[11] when a
-- relay to the players' inboxes is due if none was made by then ('' = nothing to relay);
-- ARGV[12..] event JSON, one per event.
-- KEYS[3] the relay set of the game's slot (see events/relays.py); KEYS[4] idempotency key.
-- Entry ids are '<version>-0': the version is the 1-based position in the stream. The last
-- entry of an append carries its stamp (field n), a random mark: after a failover that lost
-- writes, a version can come back with other events, and only the stamp tells them apart.
-- Every entry carries the append's time (field t, milliseconds), in the same XADD.
-- An append is published on the channel as
-- '<game id>\n<first version>\n<time>\n<stamp before>\n<stamp>\n<event JSON>\n...', the stamp
-- before being the one checked on the entry at the expected version ('' when none was).
-- Returns {status, first version, last version, current version}; status is ok, duplicate
-- (the key's first append, same fingerprint), key-reused (another fingerprint) or conflict.

local current = redis.call('XLEN', KEYS[1])

if KEYS[4] then
  local seen = redis.call('GET', KEYS[4])
  if seen then
    local first, last, fingerprint = string.match(seen, '^(%d+):(%d+):(.*)$')
    local status = 'duplicate'
    if fingerprint ~= ARGV[3] then
      status = 'key-reused'
    else
      -- A write, so that a WAIT after this answer covers the key's first append too.
      redis.call('EXPIRE', KEYS[4], ARGV[2])
    end
    return {status, tonumber(first), tonumber(last), current}
  end
end

if current ~= tonumber(ARGV[1]) then
  return {'conflict', 0, 0, current}
end

if ARGV[8] ~= '' and current > 0 then
  local entry = redis.call('XRANGE', KEYS[1], current .. '-0', current .. '-0')[1]
  local stamp = nil
  if entry then
    local fields = entry[2]
    for i = 1, #fields, 2 do
      if fields[i] == 'n' then stamp = fields[i + 1] end
    end
  end
  if stamp ~= ARGV[8] then
    return {'conflict', 0, 0, current}
  end
end

local first = current + 1
for i = 12, #ARGV do
  current = current + 1
  local fields = {'e', ARGV[i], 't', ARGV[10]}
  if i == 12 and ARGV[6] ~= '' then
    table.insert(fields, 'm')
    table.insert(fields, ARGV[6])
  end
  if i == #ARGV then
    table.insert(fields, 'n')
    table.insert(fields, ARGV[7])
  end
  redis.call('XADD', KEYS[1], string.format('%d-0', current), unpack(fields))
end

if KEYS[4] then
  redis.call('SET', KEYS[4], first .. ':' .. current .. ':' .. ARGV[3], 'EX', ARGV[2])
end

redis.call('ZREM', KEYS[2], ARGV[4] .. '@' .. ARGV[1])
if ARGV[5] ~= '' then
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[4] .. '@' .. current)
end

if ARGV[11] ~= '' then
  redis.call('ZADD', KEYS[3], ARGV[11], ARGV[4] .. '@' .. first .. '-' .. current)
end

if ARGV[9] ~= '' then
  local head = table.concat({ARGV[4], first, ARGV[10], ARGV[8], ARGV[7], ''}, '\n')
  redis.call('PUBLISH', ARGV[9], head .. table.concat(ARGV, '\n', 12))
end

return {'ok', first, current, current}
