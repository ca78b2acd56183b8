-- Changes the configured step of an existing segment key.
--
-- KEYS[1]  the key's record, a hash: max_id, step, description, update_time
-- ARGV[1]  the new step
--
-- Returns {'ok'}, {'unknown'}, or {'corrupt', field, value, rule}.

local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'none' then
	return {'unknown'}
end
if kind ~= 'hash' then
	return {'corrupt', '', kind, 'must be a hash'}
end
local time = redis.call('TIME')
redis.call('HSET', KEYS[1], 'step', ARGV[1],
		'update_time', string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)))
return {'ok'}
