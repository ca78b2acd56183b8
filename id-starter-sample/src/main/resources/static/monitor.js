// id-server monitor: polls /api/monitor and renders it. No framework, no build step.
// Every value from the server is written with textContent, never as HTML.
(function () {
	'use strict';

	const params = new URLSearchParams(window.location.search);
	const intervalSeconds = Math.max(0.2, Number(params.get('interval')) || 1);
	const numberFormat = new Intl.NumberFormat('en-US');
	const rateFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

	document.getElementById('interval').textContent = String(intervalSeconds);

	function number(value) {
		return (value === null || value === undefined) ? '–' : numberFormat.format(value);
	}

	function time(iso) {
		if (!iso) {
			return '–';
		}
		const date = new Date(iso);
		return date.toLocaleTimeString('en-GB', { hour12: false }) + '.'
			+ String(date.getMilliseconds()).padStart(3, '0');
	}

	function relative(iso, now) {
		if (!iso) {
			return '';
		}
		const seconds = (new Date(iso).getTime() - now) / 1000;
		return (seconds >= 0) ? 'in ' + seconds.toFixed(1) + ' s' : (-seconds).toFixed(1) + ' s ago';
	}

	function element(tag, className, text) {
		const node = document.createElement(tag);
		if (className) {
			node.className = className;
		}
		if (text !== undefined) {
			node.textContent = text;
		}
		return node;
	}

	function rangeCell(cell, range) {
		cell.replaceChildren();
		if (!range) {
			cell.append(element('span', 'small', '–'));
			return;
		}
		cell.append(element('div', 'range', '[' + range.start + ', ' + range.end + ')'));
		const used = range.size > 0 ? (range.size - range.remaining) / range.size : 0;
		const bar = element('div', 'bar');
		const fill = element('span');
		fill.style.width = (used * 100).toFixed(1) + '%';
		bar.append(fill);
		cell.append(bar);
		cell.append(element('div', 'small', 'next ' + range.nextValue + ' · ' + number(range.remaining) + ' left'));
	}

	function keyState(key) {
		if (key.lastError) {
			return ['store error', 'bad', key.lastError];
		}
		if (!key.loaded) {
			return ['not loaded', '', 'ranges are fetched on the first ID'];
		}
		if (key.fetchInFlight) {
			return ['fetching', 'warn', 'the next range is being fetched'];
		}
		if (!key.next) {
			return ['current only', '', 'the next range is fetched when part of the current one is used'];
		}
		return ['ready', 'ok', 'both ranges ready'];
	}

	const columns = ['key', 'current', 'next', 'step', 'remaining', 'idsPerSecond', 'issued', 'lastFetch', 'state'];
	const numeric = new Set(['step', 'remaining', 'idsPerSecond', 'issued']);

	function renderSegments(keys, now) {
		const body = document.querySelector('#segments tbody');
		const rows = new Map();
		for (const row of body.querySelectorAll('tr')) {
			rows.set(row.dataset.key, row);
		}
		const seen = new Set();
		for (const key of keys) {
			seen.add(key.key);
			let row = rows.get(key.key);
			if (!row) {
				row = document.createElement('tr');
				row.dataset.key = key.key;
				for (const column of columns) {
					const cell = element('td', numeric.has(column) ? 'num' : '');
					cell.dataset.field = column;
					row.append(cell);
				}
				body.append(row);
			}
			const cell = (name) => row.querySelector('td[data-field="' + name + '"]');
			cell('key').textContent = key.key;
			rangeCell(cell('current'), key.current);
			rangeCell(cell('next'), key.next);
			cell('step').textContent = !key.loaded ? '–' : number(key.step)
				+ (key.step !== key.configuredStep ? ' (' + number(key.configuredStep) + ')' : '');
			cell('step').title = 'dynamic step (configured step in parentheses when different)';
			cell('remaining').textContent = key.loaded ? number(key.remaining) : '–';
			cell('idsPerSecond').textContent = rateFormat.format(key.idsPerSecond);
			cell('issued').textContent = number(key.issuedCount);
			const fetch = cell('lastFetch');
			fetch.replaceChildren();
			if (key.lastFetchTime) {
				fetch.append(element('div', '', time(key.lastFetchTime)));
				fetch.append(element('div', 'small', (key.lastFetchMillis === null ? '?' : key.lastFetchMillis.toFixed(1))
					+ ' ms · ' + relative(key.lastFetchTime, now)));
			}
			else {
				fetch.append(element('span', 'small', '–'));
			}
			const [label, level, title] = keyState(key);
			const badge = element('span', 'badge ' + level, label);
			badge.title = title;
			cell('state').replaceChildren(badge);
		}
		for (const [name, row] of rows) {
			if (!seen.has(name)) {
				row.remove();
			}
		}
		document.getElementById('no-keys').hidden = keys.length > 0;
	}

	function renderPeriodic(keys) {
		const body = document.querySelector('#periodic tbody');
		const rows = (keys || []).map((key) => {
			const row = document.createElement('tr');
			for (const value of [key.key, key.reset, key.format, key.zone, key.currentSegmentKey, key.retention]) {
				row.append(element('td', '', value));
			}
			return row;
		});
		body.replaceChildren(...rows);
		document.getElementById('periodic-section').hidden = rows.length === 0;
	}

	function timeField(node, iso, now) {
		node.replaceChildren(element('div', '', time(iso)));
		if (iso) {
			node.append(element('div', 'small', relative(iso, now)));
		}
	}

	const leaseLevels = { ACTIVE: 'ok', RENEWAL_FAILING: 'warn', LOST: 'bad', CLOSED: 'bad', NOT_STARTED: '' };

	function renderSnowflake(snowflake, now) {
		const field = (name) => document.querySelector('#snowflake [data-field="' + name + '"]');
		const lease = snowflake.lease;
		field('workerId').textContent = snowflake.workerId === null ? 'none' : String(snowflake.workerId);
		if (lease) {
			const badge = element('span', 'badge ' + (leaseLevels[lease.state] || ''), lease.state);
			badge.title = 'namespace ' + lease.namespace;
			field('leaseState').replaceChildren(badge);
			timeField(field('leaseExpiry'), lease.leaseExpiry, now);
			timeField(field('issuingUntil'), lease.issuingUntil, now);
			timeField(field('lastRenewal'), lease.lastRenewal, now);
			field('failures').textContent = number(lease.consecutiveFailures);
			field('clockOffset').textContent = lease.clockOffsetMillis === null ? '–' : lease.clockOffsetMillis + ' ms';
		}
		else {
			field('leaseState').textContent = 'not leased (fixed worker ID)';
		}
		field('idsPerSecond').textContent = rateFormat.format(snowflake.idsPerSecond);
		field('issued').textContent = number(snowflake.issuedCount);
		timeField(field('lastTimestamp'), snowflake.lastTimestamp, now);
		field('layout').textContent = snowflake.layout;
	}

	function renderRows(selector, items, cells) {
		const body = document.querySelector(selector + ' tbody');
		body.replaceChildren();
		for (const item of items) {
			const row = document.createElement('tr');
			for (const [value, className] of cells(item)) {
				row.append(element('td', className || '', value));
			}
			body.append(row);
		}
	}

	function renderFleet(fleet, now) {
		// The open answer has counts only; client names and namespaces are for operators (GET /api/admin/monitor).
		const workers = (fleet && fleet.workers) || [];
		const draws = (fleet && fleet.draws) || [];
		renderRows('#fleet-workers', workers, (worker) => [[worker.client], [worker.namespace],
			[String(worker.workerId), 'num'], [time(worker.lastSeen) + ' (' + relative(worker.lastSeen, now) + ')'],
			[time(worker.expiry) + ' (' + relative(worker.expiry, now) + ')']]);
		renderRows('#fleet-draws', draws, (draw) => [[draw.key], [draw.client],
			['[' + draw.lastStart + ', ' + draw.lastEnd + ')'], [number(draw.ranges), 'num'], [number(draw.ids), 'num'],
			[time(draw.lastDraw) + ' (' + relative(draw.lastDraw, now) + ')']]);
		const hint = document.getElementById('no-fleet');
		hint.hidden = workers.length + draws.length > 0;
		hint.textContent = (fleet && fleet.clients > 0)
			? fleet.clients + ' client(s) hold ' + number(fleet.workersHeld) + ' worker ID(s) and drew '
				+ number(fleet.ranges) + ' range(s) of ' + number(fleet.ids) + ' IDs; which client holds what is '
				+ 'shown to operators only (GET /api/admin/monitor)'
			: 'No client has used this server yet.';
	}

	function setStatus(state, text) {
		const status = document.getElementById('status');
		status.dataset.state = state;
		status.textContent = text;
	}

	async function poll() {
		try {
			const response = await fetch('api/monitor', { cache: 'no-store', headers: { Accept: 'application/json' } });
			if (!response.ok) {
				throw new Error('HTTP ' + response.status);
			}
			const snapshot = await response.json();
			const now = new Date(snapshot.time).getTime();
			renderSegments(snapshot.segmentKeys, now);
			renderPeriodic(snapshot.periodicKeys);
			renderSnowflake(snapshot.snowflake, now);
			renderFleet(snapshot.fleet, now);
			setStatus('ok', 'updated ' + time(snapshot.time));
		}
		catch (error) {
			setStatus('error', 'server unreachable: ' + error.message);
		}
		finally {
			window.setTimeout(poll, intervalSeconds * 1000);
		}
	}

	poll();
})();
