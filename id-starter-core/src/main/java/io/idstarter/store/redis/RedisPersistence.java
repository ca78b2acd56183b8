package io.idstarter.store.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;

/**
 * How a Redis server keeps its data across a restart, as far as it will say: {@code CONFIG GET appendonly,
 * appendfsync, save}, or {@code INFO persistence} where {@code CONFIG} is disabled (managed services often rename or
 * forbid it). On Redis Cluster every master is asked and the weakest answer counts.
 *
 * @param mode what was found
 * @param evidence the settings it was told from, for messages (for example {@code appendonly=no save=''})
 * @param connectedReplicas replicas connected to the server ({@code INFO replication}, least over the masters of a
 * cluster), or -1 if unknown
 */
public record RedisPersistence(Mode mode, String evidence, int connectedReplicas) {

	/** The start of a Redis error reply: an upper-case code, then a space. */
	private static final Pattern ERROR_REPLY = Pattern.compile("[A-Z]{2,}[A-Z_]* ");

	/**
	 * Asks the server over a connection. A command the server refuses with an error (a disabled {@code CONFIG}) is
	 * passed over; a connection that fails or times out is not, so that an unreachable server is never taken for
	 * one that would not say.
	 * @param connection an open connection (standalone, sentinel-managed master, or cluster)
	 * @return what it said; {@link Mode#UNKNOWN} when neither {@code CONFIG} nor {@code INFO} answered
	 * @throws org.springframework.dao.DataAccessException if the server cannot be reached
	 */
	public static RedisPersistence inspect(RedisConnection connection) {
		if (connection instanceof RedisClusterConnection cluster) {
			return inspectCluster(cluster);
		}
		return inspect(new Server() {

			@Override
			public Properties config(String pattern) {
				return connection.serverCommands().getConfig(pattern);
			}

			@Override
			public Properties info(String section) {
				return connection.serverCommands().info(section);
			}

		}, "");
	}

	private static RedisPersistence inspectCluster(RedisClusterConnection cluster) {
		RedisPersistence weakest = null;
		List<String> evidence = new ArrayList<>();
		for (RedisClusterNode node : cluster.clusterGetNodes()) {
			if (!node.isMaster()) {
				continue;
			}
			RedisPersistence found = inspect(new Server() {

				@Override
				public Properties config(String pattern) {
					return cluster.serverCommands().getConfig(node, pattern);
				}

				@Override
				public Properties info(String section) {
					return cluster.serverCommands().info(node, section);
				}

			}, node.asString() + ": ");
			evidence.add(found.evidence());
			if (weakest == null || found.mode().ordinal() > weakest.mode().ordinal()
					|| (found.mode() == weakest.mode() && found.connectedReplicas() < weakest.connectedReplicas())) {
				weakest = found;
			}
		}
		if (weakest == null) {
			return new RedisPersistence(Mode.UNKNOWN, "no master in CLUSTER NODES", -1);
		}
		return new RedisPersistence(weakest.mode(), String.join("; ", evidence), weakest.connectedReplicas());
	}

	private static RedisPersistence inspect(Server server, String label) {
		int replicas = replicas(server);
		try {
			String appendonly = value(server.config("appendonly"), "appendonly");
			if (appendonly != null) {
				String fsync = value(server.config("appendfsync"), "appendfsync");
				String save = value(server.config("save"), "save");
				return new RedisPersistence(fromConfig(appendonly, fsync, save), label + "appendonly=" + appendonly
						+ " appendfsync=" + fsync + " save='" + ((save != null) ? save : "?") + "'", replicas);
			}
		}
		catch (DataAccessException ex) {
			// CONFIG disabled or renamed: INFO may still tell.
			requireRefusal(ex);
		}
		try {
			Properties info = server.info("persistence");
			String aof = value(info, "aof_enabled");
			if (aof != null) {
				return new RedisPersistence(fromInfo(info), label + "aof_enabled=" + aof + " (INFO persistence; "
						+ "CONFIG GET did not answer, so appendfsync is unknown)", replicas);
			}
		}
		catch (DataAccessException ex) {
			requireRefusal(ex);
		}
		return new RedisPersistence(Mode.UNKNOWN, label + "neither CONFIG GET appendonly nor INFO persistence answered",
				replicas);
	}

	private static int replicas(Server server) {
		try {
			String connected = value(server.info("replication"), "connected_slaves");
			return (connected != null) ? Integer.parseInt(connected.trim()) : -1;
		}
		catch (DataAccessException ex) {
			requireRefusal(ex);
			return -1;
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	/**
	 * Rethrows a failure unless the server answered with an error reply (an upper-case code such as {@code ERR} or
	 * {@code NOPERM}, as for a disabled command): a connection that failed or timed out must not pass for a server
	 * that would not say.
	 */
	private static void requireRefusal(DataAccessException ex) {
		String reply = String.valueOf(NestedExceptionUtils.getMostSpecificCause(ex).getMessage());
		if (ex instanceof RedisConnectionFailureException || ex instanceof QueryTimeoutException
				|| !ERROR_REPLY.matcher(reply).lookingAt()) {
			throw ex;
		}
	}

	/**
	 * Reads the persistence from the values of {@code CONFIG GET}.
	 * @param appendonly {@code yes} or {@code no}
	 * @param appendfsync {@code always}, {@code everysec} or {@code no}; null if unknown
	 * @param save the RDB snapshot schedule, empty for none; null if unknown
	 * @return the mode
	 */
	static Mode fromConfig(String appendonly, @Nullable String appendfsync, @Nullable String save) {
		if ("yes".equalsIgnoreCase(appendonly.trim())) {
			String fsync = (appendfsync != null) ? appendfsync.trim().toLowerCase(Locale.ROOT) : "";
			return switch (fsync) {
				case "always" -> Mode.AOF_ALWAYS;
				case "everysec" -> Mode.AOF_EVERYSEC;
				case "no" -> Mode.AOF_NO_FSYNC;
				default -> Mode.AOF;
			};
		}
		return (save != null && !save.isBlank()) ? Mode.SNAPSHOTS_ONLY : Mode.NONE;
	}

	/**
	 * Reads the persistence from {@code INFO persistence}, which tells whether an append-only file is kept but not
	 * its fsync policy, nor whether snapshots are scheduled.
	 * @param info the section's fields
	 * @return {@link Mode#AOF}, {@link Mode#NONE} (no append-only file; snapshots unknown), or {@link Mode#UNKNOWN}
	 */
	static Mode fromInfo(Properties info) {
		String aof = value(info, "aof_enabled");
		if (aof == null) {
			return Mode.UNKNOWN;
		}
		return "1".equals(aof.trim()) ? Mode.AOF : Mode.NONE;
	}

	/**
	 * Finds a field by name; Spring Data prefixes fields with the node ({@code host:port.name}) in some cluster
	 * replies.
	 */
	private static @Nullable String value(@Nullable Properties properties, String name) {
		if (properties == null) {
			return null;
		}
		String value = properties.getProperty(name);
		if (value != null) {
			return value;
		}
		for (String key : properties.stringPropertyNames()) {
			if (key.endsWith("." + name)) {
				return properties.getProperty(key);
			}
		}
		return null;
	}

	/**
	 * What a server keeps, from the strongest to the weakest (a cluster is as strong as its weakest master).
	 */
	public enum Mode {

		/** Append-only file, fsync'd before each write is acknowledged: nothing acknowledged is lost. */
		AOF_ALWAYS(true),

		/**
		 * Append-only file, fsync'd every second: survives a crash of Redis; a crash of the host (power, kernel) may
		 * lose about the last second of writes.
		 */
		AOF_EVERYSEC(true),

		/** Append-only file whose fsync policy could not be read (only {@code INFO} answered). */
		AOF(true),

		/**
		 * Append-only file, fsync left to the operating system: survives a crash of Redis; a crash of the host may
		 * lose tens of seconds of writes.
		 */
		AOF_NO_FSYNC(true),

		/** No append-only file, only RDB snapshots: a restart goes back to the last snapshot, losing later writes. */
		SNAPSHOTS_ONLY(false),

		/** Nothing is kept: a restart loses every lease and segment mark. */
		NONE(false),

		/** The server would not say (neither {@code CONFIG} nor {@code INFO} answered). */
		UNKNOWN(true);

		private final boolean keepsWrites;

		Mode(boolean keepsWrites) {
			this.keepsWrites = keepsWrites;
		}

		/**
		 * Whether a restart of Redis keeps every acknowledged write (or this cannot be told).
		 * @return false for {@link #SNAPSHOTS_ONLY} and {@link #NONE}
		 */
		public boolean keepsWrites() {
			return this.keepsWrites;
		}

	}

	/** One server's answers. */
	private interface Server {

		Properties config(String pattern);

		Properties info(String section);

	}

}
