package io.idstarter.local;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The wait for a {@link LocalFileLock} is bounded: a process that holds the lock and never lets go (frozen, stuck)
 * makes the others give up with a {@link LocalFileLockTimeoutException}, never wait forever.
 */
class LocalFileLockTests {

	@TempDir
	Path directory;

	@Test
	@Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
	void lockHeldByAnotherProcessIsGivenUpAfterTheDefaultWait() throws Exception {
		Path file = this.directory.resolve("worker-id");
		AtomicBoolean worked = new AtomicBoolean();
		try (OtherProcessLock other = OtherProcessLock.hold(file)) {
			long started = System.nanoTime();
			assertThatExceptionOfType(LocalFileLockTimeoutException.class)
				.isThrownBy(() -> LocalFileLock.call(file, () -> worked.getAndSet(true)))
				.satisfies((ex) -> {
					assertThat(ex.file()).isEqualTo(file);
					assertThat(ex.waited()).isGreaterThanOrEqualTo(LocalFileLock.DEFAULT_TIMEOUT);
					assertThat(ex.getMessage()).contains(file.toString(), file.getFileName() + ".lock", " ms",
							"another process", "frozen or stuck", "its own file", "lslocks");
				});
			assertThat(Duration.ofNanos(System.nanoTime() - started))
				.isBetween(LocalFileLock.DEFAULT_TIMEOUT, LocalFileLock.DEFAULT_TIMEOUT.plusSeconds(3));
		}
		assertThat(worked).as("work done without the lock").isFalse();
	}

	@Test
	@Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
	void lockIsTakenOnceTheOtherProcessLetsGo() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		try (OtherProcessLock other = OtherProcessLock.hold(file)) {
			assertThatExceptionOfType(LocalFileLockTimeoutException.class)
				.isThrownBy(() -> LocalFileLock.call(file, Duration.ofMillis(200), () -> "done"))
				.satisfies((ex) -> assertThat(ex.waited()).isBetween(Duration.ofMillis(200), Duration.ofSeconds(2)));
		}
		assertThat(LocalFileLock.call(file, Duration.ofMillis(200), () -> "done")).isEqualTo("done");
	}

	@Test
	@Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
	void interruptEndsTheWaitForAnotherProcessAndStaysSet() throws Exception {
		Path file = this.directory.resolve("slot-marks");
		try (OtherProcessLock other = OtherProcessLock.hold(file)) {
			assertInterruptEndsWait(file);
		}
	}

	@Test
	@Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
	void interruptEndsTheWaitForAnotherThreadAndStaysSet() throws Exception {
		Path file = this.directory.resolve("slot-marks");
		CountDownLatch holding = new CountDownLatch(1);
		CountDownLatch letGo = new CountDownLatch(1);
		CompletableFuture<Void> holder = holdInAnotherThread(file, holding, letGo);
		try {
			assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
			assertInterruptEndsWait(file);
		}
		finally {
			letGo.countDown();
			holder.get(10, TimeUnit.SECONDS);
		}
	}

	@Test
	@Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
	void anotherThreadOfThisProcessHoldingTheLockBoundsTheWaitToo() throws Exception {
		Path file = this.directory.resolve("worker-id");
		CountDownLatch holding = new CountDownLatch(1);
		CountDownLatch letGo = new CountDownLatch(1);
		CompletableFuture<Void> holder = holdInAnotherThread(file, holding, letGo);
		try {
			assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
			assertThatExceptionOfType(LocalFileLockTimeoutException.class)
				.isThrownBy(() -> LocalFileLock.call(file, Duration.ofMillis(200), () -> "done"));
		}
		finally {
			letGo.countDown();
			holder.get(10, TimeUnit.SECONDS);
		}
		assertThat(LocalFileLock.call(file, Duration.ofMillis(200), () -> "done")).isEqualTo("done");
	}

	@Test
	void nestedCallOfTheHoldingThreadDoesNotWait() throws Exception {
		Path file = this.directory.resolve("worker-id");
		assertThat(LocalFileLock.call(file, Duration.ZERO,
				() -> LocalFileLock.call(file, Duration.ZERO, () -> "nested")))
			.isEqualTo("nested");
	}

	private static CompletableFuture<Void> holdInAnotherThread(Path file, CountDownLatch holding,
			CountDownLatch letGo) {
		return CompletableFuture.runAsync(() -> {
			try {
				LocalFileLock.call(file, () -> {
					holding.countDown();
					try {
						letGo.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					return null;
				});
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	private static void assertInterruptEndsWait(Path file) throws Exception {
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		AtomicBoolean interruptedAfter = new AtomicBoolean();
		CountDownLatch waiting = new CountDownLatch(1);
		Thread waiter = new Thread(() -> {
			waiting.countDown();
			try {
				LocalFileLock.call(file, Duration.ofMinutes(5), () -> "done");
			}
			catch (Throwable ex) {
				thrown.set(ex);
			}
			interruptedAfter.set(Thread.currentThread().isInterrupted());
		});
		waiter.start();
		assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
		Thread.sleep(200);
		waiter.interrupt();
		waiter.join(10_000);
		assertThat(waiter.isAlive()).as("waiter still waiting").isFalse();
		assertThat(thrown.get()).isInstanceOf(InterruptedIOException.class);
		assertThat(interruptedAfter).as("interrupt status kept").isTrue();
	}

}
