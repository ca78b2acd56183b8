package io.idstarter.sample.web.error;

/**
 * A request parameter that is well-formed but outside what the server allows; answered with 400 and a problem
 * detail naming the parameter, its value and the rule.
 */
public class InvalidParameterException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String parameter;

	private final String value;

	private final String rule;

	/**
	 * Creates the exception.
	 * @param parameter the parameter's name as the client wrote it
	 * @param value the value the client sent
	 * @param rule what the value must be, e.g. "must be between 1 and 10000"
	 */
	public InvalidParameterException(String parameter, Object value, String rule) {
		super("'" + parameter + "' " + rule + ": " + value);
		this.parameter = parameter;
		this.value = String.valueOf(value);
		this.rule = rule;
	}

	public String getParameter() {
		return this.parameter;
	}

	public String getValue() {
		return this.value;
	}

	public String getRule() {
		return this.rule;
	}

}
