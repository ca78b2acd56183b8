-- Creates a segment key unless its record exists, atomically: of concurrent creators exactly one wins.
--
-- KEYS[1]  the key's record, a hash: max_id, step, description, update_time
-- KEYS[2]  the set of all keys
-- KEYS[3]  the version of that set, set to a new random token at every change of it (the key refresh's marker): a
--          counter could come back to a value it had before after a failover to a replica that missed a change
-- ARGV[1]  the key, ARGV[2] its first ID (max_id), ARGV[3] its step, ARGV[4] its description, ARGV[5] the new
--          version, a random token the client draws for this call
--
-- Returns {'created'}, {'exists'} (the record is left unchanged), or {'corrupt', field, value, rule} for a set of
-- keys that is not a set (checked first: a script that fails half-way keeps its earlier writes).

local kind = redis.call('TYPE', KEYS[2]).ok
if kind ~= 'none' and kind ~= 'set' then
	return {'corrupt', '', kind, 'must be a set'}
end
if redis.call('EXISTS', KEYS[1]) == 1 then
	return {'exists'}
end
local time = redis.call('TIME')
redis.call('HSET', KEYS[1], 'max_id', ARGV[2], 'step', ARGV[3], 'description', ARGV[4],
		'update_time', string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)))
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], ARGV[5])
return {'created'}
