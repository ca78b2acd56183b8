-- Reads every slot of a namespace with its high-water mark and whether a lease holds it by this server's clock (TIME):
-- an owner other than '-' whose lease has not expired, the opposite of the borrow script's "free".
-- (lease-slot.lua, in front of this, has the slot format.)
--
-- KEYS[1]  the namespace's hash
--
-- Returns {'slots', worker id, mark, held (1 or 0), worker id, mark, held, ...} or {'corrupt', field, value, rule}.
-- Writes nothing.

local namespace = KEYS[1]
local wrong = not_a_hash(namespace)
if wrong then
	return wrong
end
local now = server_now()

local reply = {'slots'}
local slots = redis.call('HGETALL', namespace)
for i = 1, #slots, 2 do
	local field, value = slots[i], slots[i + 1]
	if not string.match(field, '^%d+$') or (#field > 1 and string.sub(field, 1, 1) == '0') then
		return {'corrupt', field, value, 'is not a worker id (every field is one slot)'}
	end
	local expires_at, mark, _, owner = parse_slot(value)
	if not expires_at then
		return {'corrupt', field, value, SLOT_RULE}
	end
	reply[#reply + 1] = tonumber(field)
	reply[#reply + 1] = mark
	reply[#reply + 1] = (owner ~= '-' and expires_at > now) and 1 or 0
end
return reply
