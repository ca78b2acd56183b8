-- Reads the marker of the key list: the number of keys and the version of the set, a random token that the create
-- and delete scripts replace at every change; keys added or removed by hand change the number.
--
-- KEYS[1]  the set of all keys
-- KEYS[2]  the version of that set
--
-- Returns {number of keys, version} (version '0' before the first change).

return {redis.call('SCARD', KEYS[1]), redis.call('GET', KEYS[2]) or '0'}
