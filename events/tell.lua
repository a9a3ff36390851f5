-- Add entries that no append made (a chat message) to one player's inbox, and publish each.
-- KEYS[1] the player's inbox (a stream). ARGV[1] the inbox's length (about); ARGV[2] the
-- channel that hears of inbox entries ('' = none); ARGV[3] player id; ARGV[4..] entry JSON.
-- Each entry is published as '<player id>\n<entry id>\n<entry JSON>'. Returns how many.

for i = 4, #ARGV do
  local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'd', ARGV[i])
  if ARGV[2] ~= '' then
    redis.call('PUBLISH', ARGV[2], ARGV[3] .. '\n' .. id .. '\n' .. ARGV[i])
  end
end
return #ARGV - 3
