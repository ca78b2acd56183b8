package io.idstarter.startup;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;
import org.springframework.util.ClassUtils;

/**
 * Runs one of the applications in this JVM and reports, on standard output, when it was ready and where its start-up
 * went; {@link StartupBenchmark} reads the report. Every application's {@code main} calls {@link #run}, also when
 * {@code spring-boot:process-aot} runs it at build time, so the processed application is set up as it runs.
 *
 * <p>Lines, each starting with {@value #PREFIX}: {@code ready <JVM uptime ms> <classes loaded> <main thread CPU ns>
 * <process CPU ns>} at {@link ApplicationReadyEvent}, then one {@code step} line per recorded start-up step
 * ({@link StartupStep} name, bean name or {@code -}, bean type or {@code -}, own time and total time in ns, own CPU
 * time of the thread and its total in ns; "own" is the total less the steps nested in it), then {@code first-id <ns>}
 * (the first {@code nextId()} of the application's {@code IdWorker}, if it has one), then {@code done}. The
 * application is closed before {@code done}, so that a worker ID is given back. CPU time is less sensitive than wall
 * time to other processes competing for the cores, so the breakdown is given in both.
 *
 * <p>Refers to id-starter by class name only: the bare application runs without its jars.
 */
public final class StartupProbe {

	/** Start of every line of the report. */
	public static final String PREFIX = "#startup ";

	/** Steps kept; a start of these applications records about 2,000. */
	private static final int CAPACITY = 20_000;

	private static final String ID_WORKER = "io.idstarter.IdWorker";

	private StartupProbe() {
	}

	/**
	 * Starts an application without a web server, reports as described above, and closes it.
	 * @param application the application's class, also its main class (its processed initializer is found by it)
	 * @param args the command line
	 */
	public static void run(Class<?> application, String[] args) {
		SpringApplication spring = new SpringApplication(application);
		spring.setMainApplicationClass(application);
		spring.setWebApplicationType(WebApplicationType.NONE);
		CpuTimedStartup recorder = new CpuTimedStartup(new BufferingApplicationStartup(CAPACITY));
		spring.setApplicationStartup(recorder);
		spring.addListeners((ApplicationReadyEvent event) -> System.out.println(PREFIX + "ready "
				+ ManagementFactory.getRuntimeMXBean().getUptime() + " "
				+ ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount() + " "
				+ ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() + " "
				+ ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
					.getProcessCpuTime()));
		ConfigurableApplicationContext context = spring.run(args);
		try {
			report(recorder, context.getBeanFactory());
			firstId(context);
		}
		finally {
			context.close();
		}
		System.out.println(PREFIX + "done");
	}

	private static void report(CpuTimedStartup recorder, ConfigurableListableBeanFactory beanFactory) {
		var timeline = recorder.delegate.getBufferedTimeline().getEvents();
		Map<Long, Long> nested = new HashMap<>();
		Map<Long, Long> nestedCpu = new HashMap<>();
		for (var event : timeline) {
			Long parent = event.getStartupStep().getParentId();
			if (parent != null) {
				nested.merge(parent, event.getDuration().toNanos(), Long::sum);
				nestedCpu.merge(parent, recorder.cpuNanos.getOrDefault(event.getStartupStep().getId(), 0L), Long::sum);
			}
		}
		StringBuilder lines = new StringBuilder(timeline.size() * 80);
		for (var event : timeline) {
			StartupStep step = event.getStartupStep();
			String bean = "-";
			for (StartupStep.Tag tag : step.getTags()) {
				if (tag.getKey().equals("beanName") || tag.getKey().equals("postProcessor")) {
					// A post-processor's tag is its toString(), by default class name and hash
					bean = tag.getValue().replaceAll("[@\\s].*", "");
				}
			}
			long total = event.getDuration().toNanos();
			long own = total - nested.getOrDefault(step.getId(), 0L);
			long cpu = recorder.cpuNanos.getOrDefault(step.getId(), 0L);
			long ownCpu = cpu - nestedCpu.getOrDefault(step.getId(), 0L);
			lines.append(PREFIX).append("step ").append(step.getName()).append(' ').append(bean).append(' ')
				.append(beanType(beanFactory, bean)).append(' ').append(own).append(' ').append(total).append(' ')
				.append(ownCpu).append(' ').append(cpu).append('\n');
		}
		System.out.print(lines);
	}

	private static String beanType(ConfigurableListableBeanFactory beanFactory, String bean) {
		if (bean.equals("-") || !beanFactory.containsBean(bean)) {
			return "-";
		}
		Class<?> type = beanFactory.getType(bean, false);
		return (type != null) ? type.getName() : "-";
	}

	/** Times the first ID of the application's {@code IdWorker}: in SEGMENT mode, the first range of the default key. */
	private static void firstId(ConfigurableApplicationContext context) {
		ClassLoader loader = StartupProbe.class.getClassLoader();
		if (!ClassUtils.isPresent(ID_WORKER, loader)) {
			return;
		}
		Class<?> type = ClassUtils.resolveClassName(ID_WORKER, loader);
		Object idWorker = context.getBean(type);
		try {
			var nextId = type.getMethod("nextId");
			long start = System.nanoTime();
			nextId.invoke(idWorker);
			System.out.println(PREFIX + "first-id " + (System.nanoTime() - start));
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Could not take the first ID", ex);
		}
	}

	/**
	 * Records each step with Spring's {@link BufferingApplicationStartup} and the CPU time its thread spent in it.
	 */
	private static final class CpuTimedStartup implements ApplicationStartup {

		private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

		final BufferingApplicationStartup delegate;

		/** CPU time of each ended step's thread while it ran, by step ID. */
		final Map<Long, Long> cpuNanos = new ConcurrentHashMap<>();

		CpuTimedStartup(BufferingApplicationStartup delegate) {
			this.delegate = delegate;
		}

		@Override
		public StartupStep start(String name) {
			StartupStep step = this.delegate.start(name);
			long cpuStart = threads.getCurrentThreadCpuTime();
			return new StartupStep() {

				@Override
				public String getName() {
					return step.getName();
				}

				@Override
				public long getId() {
					return step.getId();
				}

				@Override
				public @Nullable Long getParentId() {
					return step.getParentId();
				}

				@Override
				public StartupStep tag(String key, String value) {
					step.tag(key, value);
					return this;
				}

				@Override
				public StartupStep tag(String key, Supplier<String> value) {
					step.tag(key, value);
					return this;
				}

				@Override
				public Tags getTags() {
					return step.getTags();
				}

				@Override
				public void end() {
					CpuTimedStartup.this.cpuNanos.put(step.getId(), threads.getCurrentThreadCpuTime() - cpuStart);
					step.end();
				}

			};
		}

	}

}
