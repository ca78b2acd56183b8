package io.idstarter.store.http;

import java.util.List;

/**
 * The ID servers of a client and how their calls went; what health, metrics and the actuator endpoint show. Has no
 * HTTP types, so it can be looked up where {@code spring-web} is absent.
 */
public interface IdServerStatuses {

	/**
	 * Returns the state of each server.
	 * @return the servers, in configured order
	 */
	List<IdServerStatus> servers();

	/**
	 * Returns the server calls go to first.
	 * @return its base URL
	 */
	String currentServer();

}
