-- Post one chat message to a game's chat stream, beside its event stream (same hash slot), and
-- tell the processes that follow the game. Nothing is written once the game's stream left
-- Redis (archived): its chat is read-only there.
-- KEYS[1] the chat stream; KEYS[2] the game's event stream.
-- ARGV[1] the chat's length (about); ARGV[2] the channel ('' = none); ARGV[3] game id;
-- ARGV[4] the game's version the poster was judged on ('' = not checked);
-- ARGV[5..] the message's fields and values.
-- Returns the message's id, false when the game has no stream in Redis, or 0 when the game
-- moved on since that version (who may post is judged again on the newer table).

if redis.call('EXISTS', KEYS[2]) == 0 then
  return false
end
if ARGV[4] ~= '' and redis.call('XLEN', KEYS[2]) ~= tonumber(ARGV[4]) then
  return 0
end
local fields = {}
for i = 5, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', unpack(fields))
if ARGV[2] ~= '' then
  redis.call('PUBLISH', ARGV[2], ARGV[3] .. '\n' .. id)
end
return id
