-- Atomic append of one command's events to one game stream.
-- KEYS[1] stream; KEYS[2] idempotency key (optional).
-- ARGV[1] expected version; ARGV[2] idempotency TTL (s); ARGV[3] meta JSON ('' = none);
-- ARGV[4..] event JSON, one per event.
-- Entry ids are '<version>-0': the version is the 1-based position in the stream.
-- Returns {status, first version, last version, current version}.

local current = redis.call('XLEN', KEYS[1])

if KEYS[2] then
  local seen = redis.call('GET', KEYS[2])
  if seen then
    local first, last = string.match(seen, '^(%d+):(%d+)$')
    return {'duplicate', tonumber(first), tonumber(last), current}
  end
end

if current ~= tonumber(ARGV[1]) then
  return {'conflict', 0, 0, current}
end

local first = current + 1
for i = 4, #ARGV do
  current = current + 1
  if i == 4 and ARGV[3] ~= '' then
    redis.call('XADD', KEYS[1], string.format('%d-0', current), 'e', ARGV[i], 'm', ARGV[3])
  else
    redis.call('XADD', KEYS[1], string.format('%d-0', current), 'e', ARGV[i])
  end
end

if KEYS[2] then
  redis.call('SET', KEYS[2], first .. ':' .. current, 'EX', ARGV[2])
end

return {'ok', first, current, current}
