-- Deletes a segment key's record and removes it from the set of keys, atomically, for keys retired on purpose.
--
-- KEYS[1]  the key's record, a hash: max_id, step, description, update_time
-- KEYS[2]  the set of all keys
-- KEYS[3]  the version of that set, set to a new random token at every change of it (the key refresh's marker)
-- ARGV[1]  the key, ARGV[2] the new version, a random token the client draws for this call
--
-- Returns {'deleted'} or {'unknown'} (neither the record nor the set entry existed).

local removed = redis.call('DEL', KEYS[1])
local listed = redis.call('SREM', KEYS[2], ARGV[1])
if removed == 1 or listed == 1 then
	redis.call('SET', KEYS[3], ARGV[2])
	return {'deleted'}
end
return {'unknown'}
