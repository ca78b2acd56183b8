-- Replaces a namespace's recorded layout if it is still the expected one (compare-and-set), atomically.
--
-- KEYS[1]  the namespace's layout key
-- ARGV[1]  the expected layout, ARGV[2] the replacement, both in stored form
--
-- Returns {'ok'} if it wrote, {'absent'} if no layout is recorded, {'other'} if another one is, or
-- {'corrupt', '', type, rule} if the key is not a string. Writes nothing unless it returns 'ok'.

local key = KEYS[1]
local kind = redis.call('TYPE', key).ok
if kind == 'none' then
	return {'absent'}
end
if kind ~= 'string' then
	return {'corrupt', '', kind, 'must be a string (the layout record)'}
end
if redis.call('GET', key) ~= ARGV[1] then
	return {'other'}
end
redis.call('SET', key, ARGV[2])
return {'ok'}
