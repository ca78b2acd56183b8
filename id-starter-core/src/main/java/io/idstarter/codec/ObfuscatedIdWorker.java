package io.idstarter.codec;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorker;
import org.jspecify.annotations.Nullable;

/**
 * An {@link IdWorker} that hands out the public form of another worker's IDs, so that the IDs do not reveal how many
 * were issued or in which order.
 *
 * <p>Every ID of the wrapped worker goes through an {@link IdPermutation}, in {@code nextId}, {@code nextIds} and the
 * string forms alike; uniqueness is kept because the permutation is one-to-one. {@link #reveal(long)} gives the raw
 * ID back, for example to read a Snowflake ID's time: {@code layout.parse(worker.reveal(id))}. Public IDs are no
 * longer increasing: store and index them like random keys.
 *
 * <p>The permutation may differ per key, and keys may stay plain: see {@link #builder(IdWorker)}. String forms are
 * decimal unless a {@link IdCodec} is set. Thread-safe if the wrapped worker is; adds no locking and no allocation.
 */
public final class ObfuscatedIdWorker implements IdWorker {

	private final IdWorker delegate;

	/** Permutation of {@link #nextId()} and of keys without their own; {@code null} leaves them plain. */
	private final @Nullable IdPermutation defaultPermutation;

	/** Permutations of single keys, preferred over the default one. */
	private final Map<String, IdPermutation> keyPermutations;

	/** Text form of the string methods; {@code null} for decimal. */
	private final @Nullable IdCodec codec;

	/**
	 * Creates a worker that permutes every ID of {@code delegate}, of every key, with one permutation.
	 * @param delegate the worker whose IDs are made public
	 * @param permutation the permutation
	 */
	public ObfuscatedIdWorker(IdWorker delegate, IdPermutation permutation) {
		this(delegate, Objects.requireNonNull(permutation, "permutation"), Map.of(), null);
	}

	private ObfuscatedIdWorker(IdWorker delegate, @Nullable IdPermutation defaultPermutation,
			Map<String, IdPermutation> keyPermutations, @Nullable IdCodec codec) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
		this.defaultPermutation = defaultPermutation;
		this.keyPermutations = Map.copyOf(keyPermutations);
		this.codec = codec;
	}

	/**
	 * Starts a worker with per-key permutations or a string codec.
	 * @param delegate the worker whose IDs are made public
	 * @return a builder
	 */
	public static Builder builder(IdWorker delegate) {
		return new Builder(delegate);
	}

	@Override
	public long nextId() {
		return publicId(this.defaultPermutation, this.delegate.nextId());
	}

	@Override
	public long nextId(String key) {
		return publicId(permutation(key), this.delegate.nextId(key));
	}

	/**
	 * Returns {@code count} public IDs of a key, in the order the wrapped worker issued them (not ascending).
	 * @param key the business key
	 * @param count how many IDs, at least 1
	 * @return the public IDs
	 * @throws IllegalArgumentException if {@code count} is less than 1
	 * @throws IdGenerationException if the IDs cannot be issued safely now
	 */
	@Override
	public long[] nextIds(String key, int count) {
		long[] ids = this.delegate.nextIds(key, count);
		IdPermutation permutation = permutation(key);
		if (permutation != null) {
			for (int i = 0; i < ids.length; i++) {
				ids[i] = publicId(permutation, ids[i]);
			}
		}
		return ids;
	}

	/**
	 * Returns the next public ID of the default key as text: in the codec's form if one is set, otherwise decimal.
	 * @return the public ID as a string
	 */
	@Override
	public String nextIdString() {
		return format(nextId());
	}

	/**
	 * Returns the next public ID of a key as text: in the codec's form if one is set, otherwise decimal.
	 * @param key the business key
	 * @return the public ID as a string
	 */
	@Override
	public String nextIdString(String key) {
		return format(nextId(key));
	}

	/**
	 * Returns the raw ID behind a public ID of {@link #nextId()} (of any key, if all share one permutation).
	 * @param publicId a public ID from this worker
	 * @return the ID the wrapped worker issued; {@code publicId} itself if the default key is plain
	 * @throws IllegalArgumentException if {@code publicId} is negative
	 */
	public long reveal(long publicId) {
		return rawId(this.defaultPermutation, publicId);
	}

	/**
	 * Returns the raw ID behind a public ID of {@link #nextId(String)}.
	 * @param key the business key the ID was issued for
	 * @param publicId a public ID from this worker
	 * @return the ID the wrapped worker issued; {@code publicId} itself if the key is plain
	 * @throws IllegalArgumentException if {@code publicId} is negative
	 */
	public long reveal(String key, long publicId) {
		return rawId(permutation(key), publicId);
	}

	/**
	 * Returns the raw ID behind a public ID of {@link #nextIdString()}.
	 * @param publicId the text form, in the codec's form if one is set, otherwise decimal
	 * @return the ID the wrapped worker issued
	 * @throws IllegalArgumentException if the text is not a valid public ID
	 */
	public long revealString(CharSequence publicId) {
		return reveal(parse(publicId));
	}

	/**
	 * Returns the raw ID behind a public ID of {@link #nextIdString(String)}.
	 * @param key the business key the ID was issued for
	 * @param publicId the text form, in the codec's form if one is set, otherwise decimal
	 * @return the ID the wrapped worker issued
	 * @throws IllegalArgumentException if the text is not a valid public ID
	 */
	public long revealString(String key, CharSequence publicId) {
		return reveal(key, parse(publicId));
	}

	/**
	 * Returns the wrapped worker, whose IDs are raw.
	 * @return the wrapped worker
	 */
	public IdWorker delegate() {
		return this.delegate;
	}

	private @Nullable IdPermutation permutation(String key) {
		IdPermutation permutation = this.keyPermutations.get(key);
		return (permutation != null) ? permutation : this.defaultPermutation;
	}

	private static long publicId(@Nullable IdPermutation permutation, long rawId) {
		return (permutation != null) ? permutation.encode(rawId) : rawId;
	}

	private static long rawId(@Nullable IdPermutation permutation, long publicId) {
		if (permutation != null) {
			return permutation.decode(publicId);
		}
		if (publicId < 0) {
			throw new IllegalArgumentException("public ID must be in [0, " + Long.MAX_VALUE + "]: " + publicId);
		}
		return publicId;
	}

	private String format(long publicId) {
		return (this.codec != null) ? this.codec.encode(publicId) : Long.toString(publicId);
	}

	private long parse(CharSequence publicId) {
		if (this.codec != null) {
			return this.codec.decode(publicId);
		}
		try {
			return Long.parseLong(publicId, 0, publicId.length(), 10);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("public ID must be a decimal number in [0, " + Long.MAX_VALUE + "]: "
					+ CodecErrors.quote(publicId), ex);
		}
	}

	@Override
	public String toString() {
		return "ObfuscatedIdWorker[delegate=" + this.delegate + ", default key "
				+ ((this.defaultPermutation != null) ? "permuted" : "plain") + ", keys with their own permutation "
				+ this.keyPermutations.keySet() + ", strings " + ((this.codec != null) ? this.codec : "decimal") + "]";
	}

	/**
	 * Builds an {@link ObfuscatedIdWorker}. Keys get the permutation set for them, otherwise the default one;
	 * without a default one, {@link ObfuscatedIdWorker#nextId()} and the keys not set stay plain.
	 */
	public static final class Builder {

		private final IdWorker delegate;

		private @Nullable IdPermutation defaultPermutation;

		private final Map<String, IdPermutation> keyPermutations = new HashMap<>();

		private @Nullable IdCodec codec;

		private Builder(IdWorker delegate) {
			this.delegate = Objects.requireNonNull(delegate, "delegate");
		}

		/**
		 * Sets the permutation of {@code nextId()} and of every key that has none of its own.
		 * @param permutation the permutation
		 * @return this builder
		 */
		public Builder permutation(IdPermutation permutation) {
			this.defaultPermutation = Objects.requireNonNull(permutation, "permutation");
			return this;
		}

		/**
		 * Sets the permutation of one key.
		 * @param key the business key
		 * @param permutation the permutation of its IDs
		 * @return this builder
		 * @throws IllegalStateException if the key already has one
		 */
		public Builder permutation(String key, IdPermutation permutation) {
			Objects.requireNonNull(key, "key");
			Objects.requireNonNull(permutation, "permutation");
			if (this.keyPermutations.putIfAbsent(key, permutation) != null) {
				throw new IllegalStateException("permutation of key '" + key + "' was already set");
			}
			return this;
		}

		/**
		 * Sets the text form of the string methods; decimal if not set.
		 * @param codec the codec, such as {@link Crockford32#INSTANCE}
		 * @return this builder
		 */
		public Builder codec(IdCodec codec) {
			this.codec = Objects.requireNonNull(codec, "codec");
			return this;
		}

		/**
		 * Creates the worker.
		 * @return the worker
		 * @throws IllegalStateException if no permutation was set at all
		 */
		public ObfuscatedIdWorker build() {
			if (this.defaultPermutation == null && this.keyPermutations.isEmpty()) {
				throw new IllegalStateException(
						"no permutation was set: call permutation(IdPermutation) for all keys, or permutation(key, "
								+ "IdPermutation) for some");
			}
			return new ObfuscatedIdWorker(this.delegate, this.defaultPermutation, this.keyPermutations, this.codec);
		}

	}

}
