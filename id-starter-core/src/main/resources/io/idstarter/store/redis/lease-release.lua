-- Frees a worker-ID slot, only for the owner token that holds it (lease-slot.lua, in front of this, has the slot
-- format and the ownership check). The high-water mark becomes the greatest timestamp the owner reports it issued,
-- but never less than the mark it found when it borrowed the slot (its floor); an unknown last timestamp (-1) keeps
-- the mark. The slot counts as free since now (stored as its expires_at).
--
-- KEYS[1]  the namespace's hash
-- ARGV[1]  worker ID, ARGV[2] owner token, ARGV[3] last issued timestamp (ms) or -1
--
-- Returns {'ok', mark}, {'lost', 'free'}, {'lost', 'held', instance, expires_at}, or {'corrupt', field, value, rule}.
-- Writes nothing unless it returns 'ok'.

local namespace, id = KEYS[1], ARGV[1]
local slot, reply = owned_slot(namespace, id, ARGV[2])
if not slot then
	return reply
end

local mark = slot.mark
local last = tonumber(ARGV[3])
if last ~= -1 then
	mark = math.max(last, slot.floor)
end
redis.call('HSET', namespace, id, string.format('%.0f %.0f %.0f - %s', server_now(), mark, slot.floor, slot.instance))
return {'ok', mark}
