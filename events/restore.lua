-- Write an archived game's events back into its (empty) stream, so it can be played again.
-- KEYS[1] stream. ARGV: version, event JSON, meta JSON ('' = none), then the next event's three.
-- Nothing is written when the stream has entries already. Returns the stream's length.

if redis.call('XLEN', KEYS[1]) ~= 0 then
  return redis.call('XLEN', KEYS[1])
end
for i = 1, #ARGV, 3 do
  if ARGV[i + 2] ~= '' then
    redis.call('XADD', KEYS[1], ARGV[i] .. '-0', 'e', ARGV[i + 1], 'm', ARGV[i + 2])
  else
    redis.call('XADD', KEYS[1], ARGV[i] .. '-0', 'e', ARGV[i + 1])
  end
end
return redis.call('XLEN', KEYS[1])
