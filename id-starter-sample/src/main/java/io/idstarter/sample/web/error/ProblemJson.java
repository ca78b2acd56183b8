package io.idstarter.sample.web.error;

import org.jspecify.annotations.Nullable;

/**
 * Writes a small RFC 9457 problem document by hand, for the places that answer before Spring MVC and its JSON
 * mapper are reached (Tomcat's own error reports).
 */
final class ProblemJson {

	private ProblemJson() {
	}

	static String of(int status, String title, String code, String detail, @Nullable String instance) {
		StringBuilder json = new StringBuilder(160);
		json.append("{\"title\":").append(quote(title));
		json.append(",\"status\":").append(status);
		json.append(",\"detail\":").append(quote(detail));
		if (instance != null) {
			json.append(",\"instance\":").append(quote(instance));
		}
		json.append(",\"code\":").append(quote(code)).append('}');
		return json.toString();
	}

	static String quote(String text) {
		StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> quoted.append("\\\"");
				case '\\' -> quoted.append("\\\\");
				default -> {
					if (c < 0x20 || c == '<' || c == '>' || c == '&' || (c >= 0x7f && c < 0xa0)) {
						quoted.append(String.format("\\u%04x", (int) c));
					}
					else {
						quoted.append(c);
					}
				}
			}
		}
		return quoted.append('"').toString();
	}

	/** A {@code code} for a status without a more precise one: "bad-request", "not-found", ... */
	static String code(int status, String title) {
		return title.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
	}

}
