-- Reads a namespace's recorded layout. Writes nothing.
--
-- KEYS[1]  the namespace's layout key
--
-- Returns {'found', recorded layout}, {'absent'} if none is recorded, or {'corrupt', '', type, rule} if the key is not
-- a string.

local key = KEYS[1]
local kind = redis.call('TYPE', key).ok
if kind == 'none' then
	return {'absent'}
end
if kind ~= 'string' then
	return {'corrupt', '', kind, 'must be a string (the layout record)'}
end
return {'found', redis.call('GET', key)}
