-- Moves a segment key's max_id up to a floor, if it is below: forward only, never down.
--
-- KEYS[1]  the key's record, a hash: max_id, step, description, update_time
-- ARGV[1]  the floor, a decimal in [0, 2^63 - 1] without leading zeros
--
-- Returns {'raised'}, {'kept'} (max_id already at or above the floor), {'unknown'}, or {'corrupt', field, value, rule}.

local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'none' then
	return {'unknown'}
end
if kind ~= 'hash' then
	return {'corrupt', '', kind, 'must be a hash'}
end
local max_id = redis.call('HGET', KEYS[1], 'max_id')
if not max_id or not (max_id == '0' or string.match(max_id, '^[1-9]%d*$')) or #max_id > 19 then
	return {'corrupt', 'max_id', max_id or '(missing)', 'must be an integer in [0, 9223372036854775807]'}
end
local floor = ARGV[1]
-- Compared as decimals without leading zeros, exactly: the shorter is smaller, equal lengths compare as text.
if #max_id > #floor or (#max_id == #floor and max_id >= floor) then
	return {'kept'}
end
local time = redis.call('TIME')
-- A raised max_id ends no allocation's range: nothing below it can be given back.
redis.call('HSET', KEYS[1], 'max_id', floor, 'allocation', '0', 'allocation_before', '0',
		'update_time', string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)))
return {'raised'}
