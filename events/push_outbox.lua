-- Queue one push for the drain jobs, once by its key (play/inbox.py enqueue_push).
-- KEYS[1] the pending list, KEYS[2] the flag of a drain job on its way, KEYS[3] the push's
-- outcome (its key, kept ARGV[2] seconds). ARGV[1] the push, ARGV[3] the flag's seconds.
-- Returns -1 when the push was queued before, 1 when the caller must enqueue a drain job, 0
-- when one is on its way.
if not redis.call('SET', KEYS[3], 'pending', 'NX', 'EX', ARGV[2]) then
  return -1
end
redis.call('RPUSH', KEYS[1], ARGV[1])
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[3]) then
  return 1
end
return 0
