-- Takes a free worker-ID slot of a namespace, atomically. A slot is free when it has no owner or its lease expired by
-- this server's clock (TIME). Order (ISequenceManager's): the preferred slot if free, then the lowest slot never
-- used, then the slot free for longest (ties: lowest ID). The slot's timestamp high-water mark is kept across owners and expiry.
-- (lease-slot.lua, in front of this, has the slot format.)
--
-- KEYS[1]  the namespace's hash
-- ARGV[1]  max worker ID, ARGV[2] ttl (ms), ARGV[3] preferred worker ID or -1, ARGV[4] owner token,
-- ARGV[5]  instance, ARGV[6] requested timestamp ceiling (ms), ARGV[7] worker IDs never to choose, comma-separated
--
-- Returns {'ok', worker id, floor, ceiling, server time (ms)}, {'full'}, or {'corrupt', field, value, rule}.
-- Writes nothing unless it returns 'ok'.

local namespace = KEYS[1]
local max_worker_id = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local preferred = tonumber(ARGV[3])
local requested = tonumber(ARGV[6])
local excluded = {}
for id in string.gmatch(ARGV[7] or '', '%d+') do
	excluded[tonumber(id)] = true
end

local wrong = not_a_hash(namespace)
if wrong then
	return wrong
end
local now = server_now()

-- Free slots: worker ID -> since when (ms). Every slot present: worker ID -> its mark.
local free, marks = {}, {}
local slots = redis.call('HGETALL', namespace)
for i = 1, #slots, 2 do
	local field, value = slots[i], slots[i + 1]
	if not string.match(field, '^%d+$') or (#field > 1 and string.sub(field, 1, 1) == '0') then
		return {'corrupt', field, value, 'is not a worker id (every field is one slot)'}
	end
	local id = tonumber(field)
	-- A slot above max_worker_id belongs to a wider layout sharing the namespace: not this borrower's to take or judge.
	if id <= max_worker_id then
		local expires_at, mark, _, owner = parse_slot(value)
		if not expires_at then
			return {'corrupt', field, value, SLOT_RULE}
		end
		marks[id] = mark
		if (owner == '-' or expires_at <= now) and not excluded[id] then
			free[id] = expires_at
		end
	end
end

local chosen
if preferred >= 0 and not excluded[preferred] and (free[preferred] or not marks[preferred]) then
	chosen = preferred
else
	-- Stops at the first gap that is not excluded.
	for id = 0, max_worker_id do
		if not marks[id] and not excluded[id] then
			chosen = id
			break
		end
	end
	if not chosen then
		local since
		for id, freed in pairs(free) do
			if not chosen or freed < since or (freed == since and id < chosen) then
				chosen, since = id, freed
			end
		end
	end
end
if not chosen then
	return {'full'}
end

local floor = marks[chosen] or -1
local ceiling = math.max(floor, requested)
redis.call('HSET', namespace, chosen,
		string.format('%.0f %.0f %.0f %s %s', now + ttl, ceiling, floor, ARGV[4], ARGV[5]))
return {'ok', chosen, floor, ceiling, now}
