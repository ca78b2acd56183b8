package io.idstarter.mybatisplus;

import java.util.Objects;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import io.idstarter.IdWorker;

/**
 * MyBatis-Plus identifier generator that takes IDs from an {@link IdWorker}: entities with
 * {@code @TableId(type = IdType.ASSIGN_ID)} get id-starter's IDs instead of MyBatis-Plus' own Snowflake, whose worker
 * ID is derived from the host's MAC address and PID and so can collide. {@link #nextUUID} is left to MyBatis-Plus.
 *
 * <p>Each ID is {@link IdWorker#nextId()}: a Snowflake ID in the Snowflake modes, or a segment ID of
 * {@code id-worker.segment.default-key} in segment mode (which must then be set).
 *
 * @since 0.1.0
 */
public class IdWorkerIdentifierGenerator implements IdentifierGenerator {

	private final IdWorker idWorker;

	/**
	 * Creates a generator.
	 * @param idWorker where IDs come from
	 */
	public IdWorkerIdentifierGenerator(IdWorker idWorker) {
		this.idWorker = Objects.requireNonNull(idWorker, "idWorker");
	}

	@Override
	public Number nextId(Object entity) {
		return this.idWorker.nextId();
	}

}
