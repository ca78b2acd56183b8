/**
 * Hibernate ID generators backed by the application's ID generators: {@link io.idstarter.hibernate.SnowflakeGeneratedId}
 * and {@link io.idstarter.hibernate.SegmentGeneratedId}.
 */
@NullMarked
package io.idstarter.hibernate;

import org.jspecify.annotations.NullMarked;
