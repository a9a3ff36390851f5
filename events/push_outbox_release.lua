-- A drain job would stop (events/push_outbox.py release): when pushes wait, it keeps the flag
-- and goes on (returns 1); else the flag goes (returns 0), and the next push enqueues a job.
-- Atomic with push_outbox.lua, so no push is left waiting with no drain job on its way.
-- KEYS[1] the pending list, KEYS[2] the flag. ARGV[1] the flag's seconds.
if redis.call('LLEN', KEYS[1]) > 0 then
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[1])
  return 1
end
redis.call('DEL', KEYS[2])
return 0
