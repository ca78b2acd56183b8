-- Frees a worker-ID slot, only for the owner token that holds it. The high-water mark becomes the greatest timestamp
-- the owner reports it issued, but never less than the mark it found when it borrowed the slot (its floor); an
-- unknown last timestamp (-1) keeps the mark. The slot counts as free since now (stored as its expires_at).
--
-- KEYS[1]  the namespace's hash (see lease-borrow.lua)
-- ARGV[1]  worker ID, ARGV[2] owner token, ARGV[3] last issued timestamp (ms) or -1
--
-- Returns {'ok', mark}, {'lost', 'free'}, {'lost', 'held', instance}, or {'corrupt', field, value, rule}.
-- Writes nothing unless it returns 'ok'.

local namespace, id, token = KEYS[1], ARGV[1], ARGV[2]
local kind = redis.call('TYPE', namespace).ok
if kind ~= 'none' and kind ~= 'hash' then
	return {'corrupt', '', kind, 'must be a hash'}
end
local value = redis.call('HGET', namespace, id)
if not value then
	return {'lost', 'free'}
end

local function time(text, least)
	local number = text and #text <= 16 and tonumber(text)
	if number and number >= least and number <= 9007199254740991 then
		return number
	end
	return nil
end
local expires_at, mark, floor, owner, instance = string.match(value, '^(%d+) (%d+) (%-?%d+) (%S+) (.*)$')
mark, floor = time(mark, 0), time(floor, -1)
if not (time(expires_at, 0) and mark and floor) then
	return {'corrupt', id, value, 'must be <expires_at> <max_timestamp> <timestamp_floor> <owner> <instance>, '
			.. 'times integers in [0, 9007199254740991] ms (floor also -1)'}
end
if owner == '-' then
	return {'lost', 'free'}
end
if owner ~= token then
	return {'lost', 'held', instance}
end

local last = tonumber(ARGV[3])
if last ~= -1 then
	mark = math.max(last, floor)
end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('HSET', namespace, id, string.format('%.0f %.0f %.0f - %s', now, mark, floor, instance))
return {'ok', mark}
