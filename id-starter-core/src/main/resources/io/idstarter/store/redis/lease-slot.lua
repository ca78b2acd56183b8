-- Shared by the lease scripts: RedisLeaseStore puts this in front of each of them when it loads them.
--
-- A namespace is a hash with one field per slot, named by its worker ID, with the value
-- '<expires_at> <max_timestamp> <timestamp_floor> <owner> <instance>' (times in ms; owner '-' once released).
-- Numbers stay below 2^53, where doubles are exact.

local SLOT_RULE = 'must be <expires_at> <max_timestamp> <timestamp_floor> <owner> <instance>, '
		.. 'times integers in [0, 9007199254740991] ms (floor also -1)'

-- A time in ms in [least, 2^53 - 1], or nil.
local function time(text, least)
	local number = text and #text <= 16 and tonumber(text)
	if number and number >= least and number <= 9007199254740991 then
		return number
	end
	return nil
end

-- A slot's expires_at, mark and floor (numbers), owner and instance; nil if the value is malformed.
local function parse_slot(value)
	local expires_at, mark, floor, owner, instance = string.match(value, '^(%d+) (%d+) (%-?%d+) (%S+) (.*)$')
	expires_at, mark, floor = time(expires_at, 0), time(mark, 0), time(floor, -1)
	if expires_at and mark and floor then
		return expires_at, mark, floor, owner, instance
	end
	return nil
end

-- The reply for a namespace key that is not a hash, or nil.
local function not_a_hash(namespace)
	local kind = redis.call('TYPE', namespace).ok
	if kind ~= 'none' and kind ~= 'hash' then
		return {'corrupt', '', kind, 'must be a hash'}
	end
	return nil
end

-- This server's clock (TIME) in ms.
local function server_now()
	local clock = redis.call('TIME')
	return tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
end

-- The slot `id` of the namespace if `token` holds it: {mark, floor, owner, instance}. Otherwise nil and the reply:
-- {'lost', 'free'}, {'lost', 'held', instance, expires_at} or {'corrupt', field, value, rule}. A lease that expired
-- but was not taken by anyone is still held by its token.
local function owned_slot(namespace, id, token)
	local wrong = not_a_hash(namespace)
	if wrong then
		return nil, wrong
	end
	local value = redis.call('HGET', namespace, id)
	if not value then
		return nil, {'lost', 'free'}
	end
	local expires_at, mark, floor, owner, instance = parse_slot(value)
	if not expires_at then
		return nil, {'corrupt', id, value, SLOT_RULE}
	end
	if owner == '-' then
		return nil, {'lost', 'free'}
	end
	if owner ~= token then
		return nil, {'lost', 'held', instance, string.format('%.0f', expires_at)}
	end
	return {mark = mark, floor = floor, owner = owner, instance = instance}
end

