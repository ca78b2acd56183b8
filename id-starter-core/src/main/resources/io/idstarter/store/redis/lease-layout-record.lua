-- Records a namespace's layout unless one is recorded already (put-if-absent), atomically. The record is a string key
-- of its own, apart from the namespace's hash of slots, so no slot script ever sees it.
--
-- KEYS[1]  the namespace's layout key
-- ARGV[1]  the layout, in stored form
--
-- Returns {'created', layout} if it wrote, {'found', recorded layout} if one was recorded, or
-- {'corrupt', '', type, rule} if the key is not a string. Writes nothing unless it returns 'created'.

local key = KEYS[1]
local kind = redis.call('TYPE', key).ok
if kind == 'none' then
	redis.call('SET', key, ARGV[1])
	return {'created', ARGV[1]}
end
if kind ~= 'string' then
	return {'corrupt', '', kind, 'must be a string (the layout record)'}
end
return {'found', redis.call('GET', key)}
