package io.idstarter.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Requests written byte for byte over a socket, so that nothing between a test and the server normalizes, adds or
 * rewrites anything: malformed request lines, raw headers, and the answer exactly as sent.
 */
final class RawHttp {

	private RawHttp() {
	}

	/**
	 * Sends a request and reads the whole answer.
	 * @param port the server's port on 127.0.0.1
	 * @param head the request line and headers, each ending in CRLF; {@code Connection: close} and the blank line
	 * are added
	 * @return the answer
	 */
	static Response request(int port, String head) {
		return request("127.0.0.1", port, head);
	}

	/**
	 * Sends a request from a given loopback address (Linux answers on all of {@code 127.0.0.0/8}), so that one test
	 * can be many clients, each with an address of its own.
	 * @param from the client's address, in {@code 127.0.0.0/8}
	 * @param port the server's port on 127.0.0.1
	 * @param head the request line and headers, each ending in CRLF; {@code Connection: close} and the blank line
	 * are added
	 * @return the answer
	 */
	static Response request(String from, int port, String head) {
		try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port, InetAddress.getByName(from), 0)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write((head + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream all = new ByteArrayOutputStream();
			in.transferTo(all);
			return Response.parse(all.toString(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * An answer: status, headers as {@code name: value} with the name in lower case, in the order sent, without
	 * {@code Date}; body, de-chunked.
	 */
	record Response(String text, int status, List<String> headers, String body) {

		/** The {@code Content-Type} header's value, or an empty string. */
		String contentType() {
			for (String header : this.headers) {
				if (header.startsWith("content-type: ")) {
					return header.substring("content-type: ".length());
				}
			}
			return "";
		}

		static Response parse(String text) {
			int headEnd = text.indexOf("\r\n\r\n");
			String head = (headEnd >= 0) ? text.substring(0, headEnd) : text;
			String body = (headEnd >= 0) ? text.substring(headEnd + 4) : "";
			String[] lines = head.split("\r\n");
			int status = Integer.parseInt(lines[0].substring(9, 12));
			List<String> headers = new ArrayList<>();
			boolean chunked = false;
			for (int i = 1; i < lines.length; i++) {
				int colon = lines[i].indexOf(':');
				String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
				String value = lines[i].substring(colon + 1).trim();
				if (name.equals("transfer-encoding") && value.contains("chunked")) {
					chunked = true;
				}
				if (!name.equals("date")) {
					headers.add(name + ": " + value);
				}
			}
			return new Response(text, status, headers, chunked ? dechunk(body) : body);
		}

		private static String dechunk(String body) {
			StringBuilder result = new StringBuilder();
			int at = 0;
			while (at < body.length()) {
				int lineEnd = body.indexOf("\r\n", at);
				int size = Integer.parseInt(body.substring(at, lineEnd).trim(), 16);
				if (size == 0) {
					break;
				}
				result.append(body, lineEnd + 2, lineEnd + 2 + size);
				at = lineEnd + 2 + size + 2;
			}
			return result.toString();
		}

	}

}
