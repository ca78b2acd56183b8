package io.idstarter.codec;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What every {@link IdCodec} promises; the format of each is in its own test class.
 */
class IdCodecTests {

	static Stream<IdCodec> codecs() {
		return Stream.of(Crockford32.INSTANCE, Base62.INSTANCE);
	}

	@ParameterizedTest
	@MethodSource("codecs")
	void roundTripsAtTheEdges(IdCodec codec) {
		long[] edges = LongStream.concat(LongStream.of(0, 1, 2, Long.MAX_VALUE - 1, Long.MAX_VALUE),
				LongStream.range(1, 63).flatMap((bit) -> LongStream.of((1L << bit) - 1, 1L << bit, (1L << bit) + 1)))
			.toArray();
		for (long id : edges) {
			String text = codec.encode(id);
			assertThat(text).as("encode(%d)", id).hasSize(codec.width());
			assertThat(codec.decode(text)).as("decode(%s)", text).isEqualTo(id);
		}
	}

	@ParameterizedTest
	@MethodSource("codecs")
	void roundTripsRandomIds(IdCodec codec) {
		SplittableRandom random = new SplittableRandom(5);
		for (int i = 0; i < 200_000; i++) {
			long id = randomId(random);
			String text = codec.encode(id);
			if (text.length() != codec.width() || codec.decode(text) != id) {
				throw new AssertionError(codec + " does not round-trip " + id + " (" + text + ")");
			}
		}
	}

	@ParameterizedTest
	@MethodSource("codecs")
	void textFormsSortLikeTheNumbers(IdCodec codec) {
		SplittableRandom random = new SplittableRandom(6);
		long[] ids = new long[100_000];
		for (int i = 0; i < ids.length; i++) {
			ids[i] = randomId(random);
		}
		String[] texts = Arrays.stream(ids).mapToObj(codec::encode).toArray(String[]::new);
		Arrays.sort(ids);
		Arrays.sort(texts);
		for (int i = 0; i < ids.length; i++) {
			assertThat(texts[i]).as("text at rank %d", i).isEqualTo(codec.encode(ids[i]));
		}
	}

	@ParameterizedTest
	@MethodSource("codecs")
	void decodeTakesAnyCharSequence(IdCodec codec) {
		assertThat(codec.decode(new StringBuilder(codec.encode(123_456_789L)))).isEqualTo(123_456_789L);
	}

	@ParameterizedTest
	@MethodSource("codecs")
	void encodeRejectsNegativeIds(IdCodec codec) {
		assertThatIllegalArgumentException().isThrownBy(() -> codec.encode(-1))
			.withMessage(codec + " encodes IDs in [0, 9223372036854775807], got -1");
		assertThatIllegalArgumentException().isThrownBy(() -> codec.encode(Long.MIN_VALUE))
			.withMessage(codec + " encodes IDs in [0, 9223372036854775807], got -9223372036854775808");
	}

	@ParameterizedTest
	@MethodSource("codecs")
	void decodeRejectsTextOfTheWrongLength(IdCodec codec) {
		String valid = codec.encode(42);
		assertThatIllegalArgumentException().isThrownBy(() -> codec.decode(valid.substring(1)))
			.withMessage(codec + " ID must be " + codec.width() + " characters, got " + (codec.width() - 1) + ": '"
					+ valid.substring(1) + "'");
		assertThatIllegalArgumentException().isThrownBy(() -> codec.decode(valid + "0"))
			.withMessageStartingWith(codec + " ID must be " + codec.width() + " characters, got " + (codec.width() + 1));
		assertThatIllegalArgumentException().isThrownBy(() -> codec.decode(""))
			.withMessage(codec + " ID must be " + codec.width() + " characters, got 0: ''");
	}

	@ParameterizedTest
	@MethodSource("codecs")
	void longInputIsCutInMessages(IdCodec codec) {
		String huge = "0".repeat(10_000);
		assertThatIllegalArgumentException().isThrownBy(() -> codec.decode(huge))
			.withMessage(codec + " ID must be " + codec.width() + " characters, got 10000: '" + "0".repeat(40) + "...'");
	}

	@ParameterizedTest
	@MethodSource("codecs")
	void decodeNamesTheBadCharacterAndItsIndex(IdCodec codec) {
		for (int index = 0; index < codec.width(); index++) {
			StringBuilder text = new StringBuilder(codec.encode(Long.MAX_VALUE / 3));
			text.setCharAt(index, '-');
			assertThatIllegalArgumentException().isThrownBy(() -> codec.decode(text))
				.withMessageStartingWith(codec + " ID '" + text + "' has an invalid character '-' at index " + index
						+ " (allowed: ");
		}
	}

	@ParameterizedTest
	@MethodSource("codecs")
	void decodeShowsUnprintableCharactersAsEscapes(IdCodec codec) {
		StringBuilder text = new StringBuilder(codec.encode(7));
		text.setCharAt(2, '\u00e9');
		text.setCharAt(4, '\n');
		assertThatIllegalArgumentException().isThrownBy(() -> codec.decode(text))
			.withMessageContaining("\\u000A")
			.withMessageContaining("invalid character '\\u00E9' at index 2");
	}

	/** A non-negative ID of random magnitude, so that short and long numbers are both common. */
	private static long randomId(SplittableRandom random) {
		return (random.nextLong() >>> 1) >>> random.nextInt(63);
	}

}
