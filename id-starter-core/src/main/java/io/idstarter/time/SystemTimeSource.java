package io.idstarter.time;

enum SystemTimeSource implements TimeSource {

	INSTANCE;

	@Override
	public long currentTimeMillis() {
		return System.currentTimeMillis();
	}

	@Override
	public long nanoTime() {
		return System.nanoTime();
	}

}
