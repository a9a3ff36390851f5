-- Write an archived game's events back into its (empty) stream, so it can be played again.
-- KEYS[1] stream. ARGV: version, event JSON, meta JSON ('' = none), time ('' = unknown), then
-- the next event's four.
-- Nothing is written when the stream has entries already. Returns the stream's length.

if redis.call('XLEN', KEYS[1]) ~= 0 then
  return redis.call('XLEN', KEYS[1])
end
for i = 1, #ARGV, 4 do
  local fields = {'e', ARGV[i + 1]}
  if ARGV[i + 3] ~= '' then
    table.insert(fields, 't')
    table.insert(fields, ARGV[i + 3])
  end
  if ARGV[i + 2] ~= '' then
    table.insert(fields, 'm')
    table.insert(fields, ARGV[i + 2])
  end
  redis.call('XADD', KEYS[1], ARGV[i] .. '-0', unpack(fields))
end
return redis.call('XLEN', KEYS[1])
