package io.idstarter.lease;

/**
 * A slot of a namespace as the store has it now: its timestamp high-water mark and whether a lease holds it.
 *
 * @param workerId the slot
 * @param maxTimestamp the greatest timestamp its owners were allowed to issue, milliseconds since the Unix epoch, or
 * {@code -1} if none
 * @param held whether an owner holds it now by the store's clock (a lease neither released nor expired)
 * @since 0.2.0
 */
public record SlotMark(int workerId, long maxTimestamp, boolean held) {
}
