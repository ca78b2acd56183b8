-- Extends a worker-ID lease by its TTL from this server's clock and raises the slot's high-water mark, only for the
-- owner token that holds the slot (lease-slot.lua, in front of this, has the slot format and the ownership check).
--
-- KEYS[1]  the namespace's hash
-- ARGV[1]  worker ID, ARGV[2] owner token, ARGV[3] ttl (ms), ARGV[4] requested timestamp ceiling (ms)
--
-- Returns {'ok', floor, ceiling, server time (ms)}, {'lost', 'free'}, {'lost', 'held', instance, expires_at}, or
-- {'corrupt', field, value, rule}. Writes nothing unless it returns 'ok'.

local namespace, id = KEYS[1], ARGV[1]
local slot, reply = owned_slot(namespace, id, ARGV[2])
if not slot then
	return reply
end

local now = server_now()
local ceiling = math.max(slot.mark, tonumber(ARGV[4]))
redis.call('HSET', namespace, id, string.format('%.0f %.0f %.0f %s %s', now + tonumber(ARGV[3]), ceiling,
		slot.floor, slot.owner, slot.instance))
return {'ok', slot.floor, ceiling, now}
