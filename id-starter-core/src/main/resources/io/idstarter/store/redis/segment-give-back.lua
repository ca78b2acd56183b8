-- Gives back the unused tail of a segment key's latest range: max_id back to the cursor only where it still equals
-- the range's end, so nobody allocated after it.
--
-- KEYS[1]  the key's record, a hash: max_id, step, description, update_time
-- ARGV[1]  the cursor, a decimal in [0, 2^63 - 1] without leading zeros
-- ARGV[2]  the range's end, a decimal in [0, 2^63 - 1] without leading zeros
--
-- Returns {'given'} or {'kept'} (someone allocated after the range, or the key is gone or not a hash).

if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then
	return {'kept'}
end
-- Compared as text: both are decimals without leading zeros, so equal numbers are equal strings.
if redis.call('HGET', KEYS[1], 'max_id') ~= ARGV[2] then
	return {'kept'}
end
local time = redis.call('TIME')
redis.call('HSET', KEYS[1], 'max_id', ARGV[1],
		'update_time', string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)))
return {'given'}
