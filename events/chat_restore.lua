-- Write an archived game's chat back into its (empty) chat stream, ids kept.
-- KEYS[1] the chat stream. ARGV: id, fields JSON ({name: value}), then the next message's two.
-- Nothing is written when the chat has messages already. Returns the chat's length.

if redis.call('XLEN', KEYS[1]) ~= 0 then
  return redis.call('XLEN', KEYS[1])
end
for i = 1, #ARGV, 2 do
  local fields = {}
  for name, value in pairs(cjson.decode(ARGV[i + 1])) do
    fields[#fields + 1] = name
    fields[#fields + 1] = tostring(value)
  end
  redis.call('XADD', KEYS[1], ARGV[i], unpack(fields))
end
return redis.call('XLEN', KEYS[1])
