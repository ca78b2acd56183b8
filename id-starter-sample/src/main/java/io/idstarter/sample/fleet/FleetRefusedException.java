package io.idstarter.sample.fleet;

import io.idstarter.snowflake.RecordedLayout;

import org.springframework.http.HttpStatus;

/**
 * A fleet request this server will not carry out for this client: a namespace or key not granted to it (403), a
 * quota used up (429), a borrow on another layout than the namespace's recorded one, on none, or under a change not
 * yet complete (409), or a layout replacement that is no step of a planned change the namespace's slots allow (409).
 * Nothing was changed.
 */
final class FleetRefusedException extends RuntimeException {

	private final HttpStatus status;

	private final String title;

	private final String code;

	private FleetRefusedException(HttpStatus status, String title, String code, String detail) {
		super(detail, null, false, false);
		this.status = status;
		this.title = title;
		this.code = code;
	}

	static FleetRefusedException notGranted(String client, String what, String name, String property) {
		return new FleetRefusedException(HttpStatus.FORBIDDEN, "Not granted", "not-granted",
				"Client '" + client + "' is not granted " + what + " '" + name
						+ "'; the server's operators grant it in " + property);
	}

	static FleetRefusedException layoutDiffers(String namespace, String recorded, String layout) {
		return new FleetRefusedException(HttpStatus.CONFLICT, "Layout differs", "layout-differs",
				"Namespace '" + namespace + "' records the layout " + describe(recorded) + ", and this client's is "
						+ describe(layout) + ": their IDs would collide. Configure the recorded layout on this client "
						+ "(id-worker.snowflake.*), or give it a namespace of its own");
	}

	static FleetRefusedException layoutRequired(String namespace, String recorded) {
		return new FleetRefusedException(HttpStatus.CONFLICT, "Layout required", "layout-required",
				"Namespace '" + namespace + "' records the layout " + describe(recorded) + ", and this client's borrow "
						+ "names no layout (a client before id-starter 0.2.0, which does not check the record): its "
						+ "IDs could collide with the namespace's. Upgrade the client, or give it a namespace of its "
						+ "own");
	}

	static FleetRefusedException layoutChangePending(String namespace, String recorded) {
		return new FleetRefusedException(HttpStatus.CONFLICT, "Layout change pending", "layout-change-pending",
				"Namespace '" + namespace + "' records a planned layout change that is not complete, "
						+ describe(recorded) + ": no node borrows under it (a client's lease keeper of the new layout "
						+ "completes the change before it borrows). Start a node of the new layout with "
						+ "id-worker.snowflake.layout-change.from to complete it, or read the record again");
	}

	static FleetRefusedException layoutChangeRefused(String namespace, String reason) {
		return new FleetRefusedException(HttpStatus.CONFLICT, "Layout change refused", "layout-change-refused",
				"The layout of namespace '" + namespace + "' was not replaced: " + reason);
	}

	private static String describe(String layout) {
		try {
			return "'" + layout + "' (" + RecordedLayout.parse(layout).describe() + ")";
		}
		catch (IllegalArgumentException ex) {
			return "'" + layout + "'";
		}
	}

	static FleetRefusedException overQuota(String client, String detail) {
		return new FleetRefusedException(HttpStatus.TOO_MANY_REQUESTS, "Quota exceeded", "quota-exceeded",
				"Client '" + client + "' " + detail);
	}

	HttpStatus status() {
		return this.status;
	}

	String title() {
		return this.title;
	}

	String code() {
		return this.code;
	}

}
