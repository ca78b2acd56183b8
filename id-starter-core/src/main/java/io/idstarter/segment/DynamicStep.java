package io.idstarter.segment;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

import io.idstarter.InvalidSettingException;

/**
 * Leaf's dynamic step: how big the next range of a key is, from how long the previous range lasted.
 *
 * <p>At every fetch after a key's first one, the time since the previous fetch decides (monotonic time, boundaries
 * exact):
 * <table>
 * <caption>Next step</caption>
 * <tr><th>time since the previous fetch</th><th>next step</th></tr>
 * <tr><td>{@code t < expandBelow}</td><td>{@code 2 × current}</td></tr>
 * <tr><td>{@code expandBelow <= t < shrinkAbove}</td><td>current step, unchanged</td></tr>
 * <tr><td>{@code t >= shrinkAbove}</td><td>{@code current / 2} (rounded down)</td></tr>
 * </table>
 * The result is then held between the key's configured step (the step stored with the key) and
 * {@code max(maxStep, configured step)}, whatever the branch: never below the configured step, never above the
 * maximum unless the configured step itself is. So with the defaults exactly 15 minutes keeps the step and exactly 30
 * minutes halves it, and a step above a lowered maximum or a lowered configured step comes down at the next fetch. A
 * {@code maxStep} at or below the configured step keeps the step fixed at the configured step, and follows it when it
 * is changed.
 *
 * <p>One difference from Leaf: when doubling would pass the maximum, Leaf keeps the current step, so a key whose step is
 * not the maximum divided by a power of two never reaches it; here the step is capped at the maximum. Likewise Leaf
 * keeps the current step when halving would go below the configured step; here it stops at the configured step.
 *
 * @param expandBelow a range that lasted less than this is followed by one twice as big
 * @param shrinkAbove a range that lasted this long or longer is followed by one half as big; greater than
 * {@code expandBelow}
 * @param maxStep the largest step the doubling reaches, at least 1
 */
public record DynamicStep(Duration expandBelow, Duration shrinkAbove, int maxStep) {

	/** Leaf's bound below which the step doubles. */
	public static final Duration DEFAULT_EXPAND_BELOW = Duration.ofMinutes(15);

	/** Leaf's bound from which the step halves. */
	public static final Duration DEFAULT_SHRINK_ABOVE = Duration.ofMinutes(30);

	/** Leaf's largest step. */
	public static final int DEFAULT_MAX_STEP = 1_000_000;

	private static final DynamicStep DEFAULTS = new DynamicStep(DEFAULT_EXPAND_BELOW, DEFAULT_SHRINK_ABOVE,
			DEFAULT_MAX_STEP);

	public DynamicStep {
		Objects.requireNonNull(expandBelow, "expandBelow");
		Objects.requireNonNull(shrinkAbove, "shrinkAbove");
		if (expandBelow.isNegative() || expandBelow.isZero()) {
			throw new InvalidSettingException("expandBelow", "expandBelow must be positive: " + expandBelow);
		}
		if (shrinkAbove.compareTo(expandBelow) <= 0) {
			throw new InvalidSettingException("shrinkAbove", String.format(Locale.ROOT,
					"shrinkAbove (%s) must be greater than expandBelow (%s)", shrinkAbove, expandBelow));
		}
		if (maxStep < 1) {
			throw new InvalidSettingException("maxStep", "maxStep must be at least 1: " + maxStep);
		}
	}

	/**
	 * Returns Leaf's rule: double below 15 minutes, keep up to 30 minutes, halve from 30 minutes, at most 1,000,000.
	 * @return the default rule
	 */
	public static DynamicStep defaults() {
		return DEFAULTS;
	}

	/**
	 * Returns the step of the next range.
	 * @param currentStep the step of the latest fetch, at least 1
	 * @param configuredStep the key's configured step, at least 1; the result is never below it
	 * @param nanosSinceLastFetch monotonic time since the latest fetch; a negative value counts as 0
	 * @return the next step, at least {@code configuredStep} and at most {@code max(maxStep, configuredStep)}
	 * @throws IllegalArgumentException if a step is less than 1
	 */
	public int nextStep(int currentStep, int configuredStep, long nanosSinceLastFetch) {
		if (currentStep < 1 || configuredStep < 1) {
			throw new IllegalArgumentException(String.format(Locale.ROOT,
					"steps must be at least 1: currentStep=%d, configuredStep=%d", currentStep, configuredStep));
		}
		long next;
		if (nanosSinceLastFetch < saturatedNanos(this.expandBelow)) {
			next = 2L * currentStep;
		}
		else if (nanosSinceLastFetch < saturatedNanos(this.shrinkAbove)) {
			next = currentStep;
		}
		else {
			next = currentStep / 2;
		}
		// The cap applies to every branch: a step kept from before a lowered configured step must come down too.
		long cap = Math.max(this.maxStep, configuredStep);
		return (int) Math.max(Math.min(next, cap), configuredStep);
	}

	static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
		}
	}

}
