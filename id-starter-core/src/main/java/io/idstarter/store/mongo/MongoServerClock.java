package io.idstarter.store.mongo;

import java.util.Date;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.ReadPreference;
import org.bson.Document;
import org.springframework.dao.DataAccessException;
import org.springframework.data.mongodb.core.MongoOperations;

/**
 * Reads the clock of the MongoDB server a client talks to: {@code localTime} of the {@code hello} command, or of
 * {@code isMaster} on servers that lack {@code hello} (older servers, and the in-JVM {@code mongo-java-server}). Both
 * commands need no privileges; on a sharded cluster the clock is the {@code mongos} router's.
 */
final class MongoServerClock {

	/** Error code of an unknown command. */
	private static final int COMMAND_NOT_FOUND = 59;

	private final MongoOperations mongo;

	/** Whether the server rejected {@code hello}, so {@code isMaster} is used; only ever set from false to true. */
	private volatile boolean legacyHandshake;

	MongoServerClock(MongoOperations mongo) {
		this.mongo = mongo;
	}

	/**
	 * Returns the server's time.
	 * @return milliseconds since the Unix epoch
	 * @throws DataAccessException if the server cannot be reached
	 * @throws IllegalStateException if the server's reply has no {@code localTime}
	 */
	long currentTimeMillis() {
		Document reply;
		if (this.legacyHandshake) {
			reply = run("isMaster");
		}
		else {
			try {
				reply = run("hello");
			}
			catch (DataAccessException | MongoException ex) {
				if (!commandNotFound(ex)) {
					throw ex;
				}
				this.legacyHandshake = true;
				reply = run("isMaster");
			}
		}
		if (reply.get("localTime") instanceof Date localTime) {
			return localTime.getTime();
		}
		throw new IllegalStateException("MongoDB server's reply to hello/isMaster has no localTime: " + reply.toJson());
	}

	private Document run(String command) {
		return this.mongo.executeCommand(new Document(command, 1), ReadPreference.primary());
	}

	private static boolean commandNotFound(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof MongoCommandException command && command.getErrorCode() == COMMAND_NOT_FOUND) {
				return true;
			}
		}
		return false;
	}

}
