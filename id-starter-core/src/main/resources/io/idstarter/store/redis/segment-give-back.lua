-- Gives back the unused tail of a segment key's latest range: max_id back to the cursor only where it still equals
-- the range's end and the range's allocation is still the one that ended there. The end alone is not enough: after a
-- give-back whose reply was lost, another node may allocate the same numbers and leave max_id at the same end, and a
-- give-back sent again (Lettuce resends unanswered commands after a reconnect) would take that node's range back.
--
-- KEYS[1]  the key's record, a hash: max_id, step, description, update_time, allocations, allocation,
--          allocation_before
-- ARGV[1]  the cursor, a decimal in [0, 2^63 - 1] without leading zeros
-- ARGV[2]  the range's end, a decimal in [0, 2^63 - 1] without leading zeros
-- ARGV[3]  the number segment-allocate.lua gave the range's allocation
--
-- Returns {'given'} or {'kept'} (someone allocated after the range, it was given back already, or the key is gone
-- or not a hash). After a give-back, the allocation before it is the one whose range ends at max_id: a node's
-- prefetched range goes back whole, then the tail of its current range.

if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then
	return {'kept'}
end
local fields = redis.call('HMGET', KEYS[1], 'max_id', 'allocation', 'allocation_before')
-- Compared as text: decimals without leading zeros, so equal numbers are equal strings.
if fields[1] ~= ARGV[2] or fields[2] ~= ARGV[3] then
	return {'kept'}
end
local time = redis.call('TIME')
redis.call('HSET', KEYS[1], 'max_id', ARGV[1], 'allocation', fields[3] or '0', 'allocation_before', '0',
		'update_time', string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)))
return {'given'}
