-- Allocates the next range of one segment key, atomically: raises max_id by the step and returns the new max_id.
-- The range is [max_id - step, max_id). Never creates a key.
--
-- KEYS[1]  the key's record, a hash: max_id, step, description, update_time
-- ARGV[1]  the step to use, or '' for the key's configured step
-- ARGV[2]  a random number in [1, 2^62) the client draws for this call: the numbering's start if the key has none
--
-- Numbers each allocation: 'allocations' counts them, 'allocation' is the number of the one whose range ends at
-- max_id, 'allocation_before' the one that did before it. A give-back names the allocation of its range, so that it
-- never takes back a later allocation that ended at the same max_id (see segment-give-back.lua). The numbering of a
-- key starts at a random number, not at 1: a key deleted and created again starts afresh, and a node may still hold
-- the number of a range of the key's earlier life that ends where a range of the new one does.
--
-- Returns {'ok', max_id after, step used, configured step, allocation number} (strings: max_id may exceed 2^53,
-- where Lua numbers, which are doubles, lose precision; the increment itself is done by HINCRBY on 64-bit integers),
-- {'unknown'}, {'overflow', max_id, step used}, or {'corrupt', field, value, rule}.

local record = KEYS[1]
local kind = redis.call('TYPE', record).ok
if kind == 'none' then
	return {'unknown'}
end
if kind ~= 'hash' then
	return {'corrupt', '', kind, 'must be a hash'}
end

local fields = redis.call('HMGET', record, 'max_id', 'step')
local max_id, configured = fields[1], fields[2]
if not max_id or not (max_id == '0' or string.match(max_id, '^[1-9]%d*$')) or #max_id > 19 then
	return {'corrupt', 'max_id', max_id or '(missing)', 'must be an integer in [0, 9223372036854775807]'}
end
if not configured or not string.match(configured, '^[1-9]%d*$') or #configured > 10
		or tonumber(configured) > 2147483647 then
	return {'corrupt', 'step', configured or '(missing)', 'must be an integer in [1, 2147483647]'}
end

local step = configured
if ARGV[1] ~= '' then
	step = ARGV[1]
end

-- Whether max_id + step stays at or below 2^63 - 1, computed exactly: max_id is split into its high digits and its
-- low nine digits, each exact as a double, and the step (below 2^31) is added to the low part.
local digits = #max_id
local high = 0
if digits > 9 then
	high = tonumber(string.sub(max_id, 1, digits - 9))
end
local low = tonumber(string.sub(max_id, math.max(1, digits - 8))) + tonumber(step)
high = high + math.floor(low / 1000000000)
low = low % 1000000000
if high > 9223372036 or (high == 9223372036 and low > 854775807) then
	return {'overflow', max_id, step}
end

local time = redis.call('TIME')
redis.call('HINCRBY', record, 'max_id', step)
redis.call('HSETNX', record, 'allocations', ARGV[2])
redis.call('HINCRBY', record, 'allocations', 1)
-- Read back as text: Lua would turn the integer reply into a double, which loses digits above 2^53.
local number = redis.call('HGET', record, 'allocations')
redis.call('HSET', record, 'allocation_before', redis.call('HGET', record, 'allocation') or '0',
		'allocation', number,
		'update_time', string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)))
return {'ok', redis.call('HGET', record, 'max_id'), step, configured, number}
