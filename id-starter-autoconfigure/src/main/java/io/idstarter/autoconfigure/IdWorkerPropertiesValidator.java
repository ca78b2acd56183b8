package io.idstarter.autoconfigure;

import java.time.Instant;
import java.util.Locale;

import io.idstarter.autoconfigure.IdWorkerProperties.LayoutPreset;
import io.idstarter.autoconfigure.IdWorkerProperties.Lease;
import io.idstarter.autoconfigure.IdWorkerProperties.Segment;
import io.idstarter.autoconfigure.IdWorkerProperties.Snowflake;
import io.idstarter.lease.WorkerIdRanges;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.segment.SegmentKeys;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakeTakeover;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Checks {@link IdWorkerProperties} with core's rules, as the generators will be built from them: the layout, the
 * lease settings, the segment options and keys. Each refusal names one property, its value and core's reason. Only
 * what ties the settings to Spring Boot is checked here: which segment store is named, and a preset combined with the
 * settings it fixes. The stores' settings are checked by their own properties classes, when their store is selected.
 */
final class IdWorkerPropertiesValidator {

	private IdWorkerPropertiesValidator() {
	}

	static void validate(IdWorkerProperties properties, Instant now) {
		SnowflakeLayout layout = validateSnowflake(properties.getSnowflake(), now);
		validateLayoutChange(properties.getSnowflake());
		validateLease(properties.getLease(), layout);
		validateSegment(properties.getSegment());
	}

	private static SnowflakeLayout validateSnowflake(Snowflake snowflake, Instant now) {
		SnowflakeLayout[] layout = new SnowflakeLayout[1];
		if (snowflake.getPreset() != null) {
			validatePreset(snowflake);
			PropertyRules.checkSettings("id-worker.snowflake.", snowflake,
					() -> layout[0] = snowflake.presetLayout(now));
		}
		else {
			if (snowflake.getPresetZone() != null && !usesShardingSpherePreset(snowflake)) {
				throw invalid("snowflake.preset-zone", snowflake.getPresetZone(),
						"applies only to id-worker.snowflake.preset=shardingsphere (or takeover.preset); remove it, "
								+ "or set that preset");
			}
			PropertyRules.checkSettings("id-worker.snowflake.", snowflake,
					() -> layout[0] = snowflake.layout().requireNotExhausted(now));
		}
		for (String column : snowflake.getTakeover().getColumns()) {
			PropertyRules.check("id-worker.snowflake.takeover.columns", column,
					() -> SnowflakeTakeover.Column.checkName(column));
		}
		LayoutPreset oldPreset = snowflake.getTakeover().getPreset();
		if (oldPreset != null) {
			PropertyRules.check("id-worker.snowflake.takeover.preset", oldPreset.name().toLowerCase(Locale.ROOT),
					() -> snowflake.presetLayout(oldPreset, now));
		}
		if (snowflake.getClockBackwards().getPolicy() == null) {
			throw invalid("snowflake.clock-backwards.policy", null, "must be 'fail' or 'tolerate'");
		}
		PropertyRules.check("id-worker.snowflake.clock-backwards.max-wait",
				PropertyRules.format(snowflake.getClockBackwards().getMaxWait()),
				() -> ClockBackwardsPolicy.failAfter(snowflake.getClockBackwards().getMaxWait()));
		return layout[0];
	}

	private static void validatePreset(Snowflake snowflake) {
		String preset = snowflake.getPreset().name().toLowerCase(Locale.ROOT);
		if (snowflake.isJavascriptSafe()) {
			throw invalid("snowflake.javascript-safe", true, "cannot be combined with id-worker.snowflake.preset ("
					+ preset + "), whose layout has 63 bits; remove one of them");
		}
		if (snowflake.getPresetZone() != null && !usesShardingSpherePreset(snowflake)) {
			throw invalid("snowflake.preset-zone", snowflake.getPresetZone(), "applies only to "
					+ "id-worker.snowflake.preset=shardingsphere (or takeover.preset), whose epoch depends on the "
					+ "zone; the " + preset + " preset's epoch does not; remove it");
		}
		Snowflake defaults = new Snowflake();
		if (!snowflake.getEpoch().equals(defaults.getEpoch())
				|| snowflake.getTimestampBits() != defaults.getTimestampBits()
				|| snowflake.getWorkerIdBits() != defaults.getWorkerIdBits()
				|| snowflake.getSequenceBits() != defaults.getSequenceBits()) {
			throw invalid("snowflake.preset", preset, "fixes the epoch and the bit counts; remove "
					+ "id-worker.snowflake.epoch, timestamp-bits, worker-id-bits and sequence-bits, or the preset");
		}
	}

	private static boolean usesShardingSpherePreset(Snowflake snowflake) {
		return snowflake.getPreset() == LayoutPreset.SHARDINGSPHERE
				|| snowflake.getTakeover().getPreset() == LayoutPreset.SHARDINGSPHERE;
	}

	private static void validateLayoutChange(Snowflake snowflake) {
		String from = snowflake.getLayoutChange().getFrom();
		if (from != null && !from.isBlank()) {
			PropertyRules.check("id-worker.snowflake.layout-change.from", from, () -> RecordedLayout.parse(from));
		}
	}

	private static void validateLease(Lease lease, SnowflakeLayout layout) {
		PropertyRules.checkSettings("id-worker.lease.", lease, () -> WorkerIdRanges
			.requireWithin(lease.settings().build().excludedWorkerIds(), layout.maxWorkerId()));
	}

	private static void validateSegment(Segment segment) {
		if (segment.getStore() == null || !segment.getStore().holdsSegments()) {
			String stores = IdWorkerStores.names((store) -> store.segmentConfiguration() != null);
			throw (segment.getStore() == null) ? invalid("segment.store", null, "must be " + stores)
					: invalid("segment.store", segment.getStore().name().toLowerCase(Locale.ROOT), "must be " + stores
							+ ": " + segment.getStore().description() + " holds worker-ID leases only");
		}
		if (segment.getMaxKeyTags() < 1) {
			throw invalid("segment.max-key-tags", segment.getMaxKeyTags(), "must be 1 or more");
		}
		String defaultKey = segment.getDefaultKey();
		if (defaultKey != null) {
			PropertyRules.check("id-worker.segment.default-key", defaultKey, () -> SegmentKeys.checkKey(defaultKey));
		}
		PropertyRules.checkSettings("id-worker.segment.dynamic-step.", segment.getDynamicStep(),
				() -> segment.getDynamicStep().toDynamicStep());
		PropertyRules.checkSettings("id-worker.segment.", segment, () -> SegmentIdWorkerConfiguration.options(segment));
		segment.getKeys().forEach((name, key) -> {
			String prefix = "id-worker.segment.keys." + name;
			PropertyRules.check(prefix, name, () -> SegmentKeys.checkKey(name));
			PropertyRules.check(prefix + ".step", key.getStep(), () -> SegmentKeys.checkStep(name, key.getStep()));
			PropertyRules.check(prefix + ".first-id", key.getFirstId(),
					() -> SegmentKeys.checkFirstId(name, key.getFirstId(), key.getStep()));
			PropertyRules.check(prefix + ".description", key.getDescription(),
					() -> SegmentKeys.checkDescription(name, key.getDescription()));
		});
	}

	private static InvalidConfigurationPropertyValueException invalid(String name, Object value, String reason) {
		return PropertyRules.invalid("id-worker." + name, value, reason);
	}

}
