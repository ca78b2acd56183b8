package io.idstarter.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.DecoratedRedisConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceClusterConnection;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs a script and {@code WAIT} on Redis Cluster through Lettuce: both on the connection to the master that serves
 * the script's first key, since {@code WAIT} counts only the writes of its own connection and a cluster client would
 * send a key-less {@code WAIT} to some other node. Loaded only for Lettuce cluster connections.
 */
final class LettuceClusterScript {

	private LettuceClusterScript() {
	}

	static boolean applies(RedisConnection connection) {
		return unwrap(connection) instanceof LettuceClusterConnection;
	}

	/**
	 * Runs the script on the key's master and, if it wrote, waits there for replica acknowledgements.
	 * @return the script's reply (bulk strings as {@code String}, integers as {@code Long}) and the number of
	 * replicas that acknowledged, -1 if it did not write
	 * @throws RedisSystemException if the node cannot be reached or the script fails
	 */
	@SuppressWarnings("unchecked")
	static Reply run(RedisConnection connection, RedisScript<List<Object>> script, List<String> keys, Object[] args,
			int replicas, long timeoutMillis) {
		LettuceClusterConnection lettuce = unwrap(connection);
		if (lettuce == null) {
			throw new IllegalArgumentException("not a Lettuce cluster connection: " + connection.getClass().getName());
		}
		RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster =
				(RedisAdvancedClusterAsyncCommands<byte[], byte[]>) lettuce.getNativeConnection();
		StatefulRedisClusterConnection<byte[], byte[]> stateful = cluster.getStatefulConnection();
		byte[][] keyBytes = keys.stream().map(LettuceClusterScript::bytes).toArray(byte[][]::new);
		byte[][] argBytes = new byte[args.length][];
		for (int i = 0; i < args.length; i++) {
			argBytes[i] = bytes(String.valueOf(args[i]));
		}
		int slot = SlotHash.getSlot(keyBytes[0]);
		try {
			RedisClusterNode master = stateful.getPartitions().getMasterBySlot(slot);
			if (master == null) {
				throw new RedisSystemException("no master serves hash slot " + slot + " of key '" + keys.get(0) + "'",
						null);
			}
			RedisCommands<byte[], byte[]> node = stateful.getConnection(master.getNodeId()).sync();
			List<Object> raw;
			try {
				raw = node.evalsha(script.getSha1(), ScriptOutputType.MULTI, keyBytes, argBytes);
			}
			catch (RedisNoScriptException ex) {
				raw = node.eval(script.getScriptAsString(), ScriptOutputType.MULTI, keyBytes, argBytes);
			}
			List<Object> reply = strings(raw);
			String status = (reply.isEmpty()) ? "" : String.valueOf(reply.get(0));
			if (!("ok".equals(status) || "created".equals(status))) {
				return new Reply(reply, -1);
			}
			Long acknowledged = node.waitForReplication(replicas, timeoutMillis);
			return new Reply(reply, (acknowledged != null) ? acknowledged : 0);
		}
		catch (io.lettuce.core.RedisException ex) {
			throw new RedisSystemException("Redis Cluster node of slot " + slot + ": " + ex.getMessage(), ex);
		}
	}

	private static List<Object> strings(List<Object> raw) {
		List<Object> reply = new ArrayList<>(raw.size());
		for (Object item : raw) {
			reply.add((item instanceof byte[] text) ? new String(text, StandardCharsets.UTF_8) : item);
		}
		return reply;
	}

	private static @Nullable LettuceClusterConnection unwrap(RedisConnection connection) {
		RedisConnection target = connection;
		while (target instanceof DecoratedRedisConnection decorated) {
			target = decorated.getDelegate();
		}
		return (target instanceof LettuceClusterConnection cluster) ? cluster : null;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * A script's reply and how many replicas acknowledged its write.
	 *
	 * @param reply the reply
	 * @param acknowledged replicas that acknowledged, -1 if the script did not write
	 */
	record Reply(List<Object> reply, long acknowledged) {
	}

}
