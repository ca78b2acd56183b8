package io.idstarter.sample;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The monitor page in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}, installed by
 * {@code scripts/ensure-test-services.sh}): it renders the demo keys and the worker lease, updates by itself as IDs
 * are issued, and looks like something (the screenshot is kept in {@code target/monitor-page.png}).
 */
class MonitorPageBrowserIntegrationTests extends AbstractIdServerTests {

	private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

	private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

	private static final Path SCREENSHOT = Path.of("target", "monitor-page.png");

	@Autowired
	private SnowflakeIdGenerator snowflake;

	private Path profile;

	private ChromeDriverService service;

	private WebDriver browser;

	@BeforeEach
	void startBrowser() throws IOException {
		if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
			fail("This test drives Debian's headless Chromium through " + CHROMEDRIVER + ", and " + CHROMIUM + " or "
					+ CHROMEDRIVER + " is missing. Install them with scripts/ensure-test-services.sh "
					+ "(apt-get install chromium chromium-driver).");
		}
		this.profile = Files.createTempDirectory("id-server-chromium-");
		this.service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
			.usingAnyFreePort()
			.build();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM.toFile());
		// Without the background-networking flags Chromium keeps calling home, which this closed network refuses.
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
				"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
				"--user-data-dir=" + this.profile, "--window-size=1400,1000");
		this.browser = new ChromeDriver(this.service, options);
	}

	@AfterEach
	void stopBrowser() throws IOException {
		if (this.browser != null) {
			this.browser.quit();
		}
		if (this.service != null) {
			this.service.stop();
		}
		if (this.profile != null) {
			try (Stream<Path> files = Files.walk(this.profile)) {
				files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
			}
		}
	}

	@Test
	void monitorPageShowsTheKeysAndTheLeaseAndUpdatesAsIdsAreIssued() throws IOException, InterruptedException {
		this.browser.get(this.http.base() + "/monitor?interval=0.25");
		WebDriverWait wait = new WebDriverWait(this.browser, Duration.ofSeconds(20));
		wait.until((browser) -> browser.findElements(By.cssSelector("#segments tbody tr[data-key]")).size() >= 3);
		List<String> keys = this.browser.findElements(By.cssSelector("#segments tbody tr[data-key]"))
			.stream()
			.map((row) -> row.getAttribute("data-key"))
			.toList();
		assertThat(keys).contains("leaf-segment-test", "order", "user");
		assertThat(this.browser.findElement(By.id("status")).getText()).startsWith("updated");
		assertThat(cell("order", "state").getText()).isEqualTo("not loaded");
		assertThat(snowflakeField("workerId").getText())
			.isEqualTo(Integer.toString(this.snowflake.workerId().getAsInt()));
		assertThat(snowflakeField("leaseState").getText()).isEqualTo("ACTIVE");
		// read in one script: the page redraws the table every 0.25 s, which makes elements found before stale
		List<String> periodic = wait.until((browser) -> {
			Object cells = ((JavascriptExecutor) browser).executeScript("return Array.from(document"
					+ ".querySelectorAll('#periodic tbody td')).map((td) => td.textContent.trim());");
			List<String> texts = ((List<?>) cells).stream().map(String::valueOf).toList();
			return (texts.size() > 4) ? texts : null;
		});
		assertThat(periodic).startsWith("invoice", "DAILY", "INV-{yyyyMMdd}-{seq:6}");
		assertThat(periodic.get(4)).startsWith("invoice:20");
		assertThat(this.browser.findElement(By.id("periodic-section")).isDisplayed()).isTrue();

		// Issue IDs: the page shows them without being reloaded.
		assertThat(this.http.get("/api/segment/batch/order?count=1234").statusCode()).isEqualTo(200);
		assertThat(this.http.get("/api/snowflake/batch/any?count=777").statusCode()).isEqualTo(200);
		wait.until((browser) -> "1,234".equals(cell("order", "issued").getText()));
		wait.until((browser) -> "777".equals(snowflakeField("issued").getText()));
		assertThat(cell("order", "current").getText()).startsWith("[1, 2001)");
		assertThat(cell("order", "remaining").getText()).isNotEqualTo("–");
		// The dynamic step may have doubled already; the configured step then follows in parentheses.
		assertThat(cell("order", "step").getText()).matches("2,000|\\d{1,3}(,\\d{3})* \\(2,000\\)");
		assertThat(cell("order", "lastFetch").getText()).contains("ms");
		assertThat(cell("order", "state").getText()).isIn("ready", "fetching", "current only");
		assertThat(cell("user", "issued").getText()).isEqualTo("0");
		assertThat(cell("user", "state").getText()).isEqualTo("not loaded");

		// Keep issuing: the rates (IDs/s over the last second) show it.
		AtomicBoolean issuing = new AtomicBoolean(true);
		Thread load = new Thread(() -> {
			while (issuing.get()) {
				this.http.get("/api/segment/batch/order?count=20");
				this.http.get("/api/snowflake/batch/any?count=30");
				LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
			}
		}, "monitor-test-load");
		load.start();
		byte[] png;
		try {
			wait.until((browser) -> !"0".equals(cell("order", "idsPerSecond").getText())
					&& !"0".equals(snowflakeField("idsPerSecond").getText()));
			png = ((ChromeDriver) this.browser).getScreenshotAs(OutputType.BYTES);
		}
		finally {
			issuing.set(false);
			load.join();
		}
		Files.createDirectories(SCREENSHOT.getParent());
		Files.write(SCREENSHOT, png);

		BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
		assertThat(image).as("a PNG screenshot").isNotNull();
		assertThat(image.getWidth()).isGreaterThanOrEqualTo(1000);
		assertThat(image.getHeight()).isGreaterThanOrEqualTo(600);
		assertThat(colours(image)).as("distinct colours: a rendered page, not a blank one").isGreaterThan(20);
	}

	private WebElement cell(String key, String field) {
		return this.browser.findElement(
				By.cssSelector("#segments tr[data-key='" + key + "'] td[data-field='" + field + "']"));
	}

	private WebElement snowflakeField(String field) {
		return this.browser.findElement(By.cssSelector("#snowflake [data-field='" + field + "']"));
	}

	private static int colours(BufferedImage image) {
		Set<Integer> colours = new HashSet<>();
		for (int y = 0; y < image.getHeight(); y += 2) {
			for (int x = 0; x < image.getWidth(); x += 2) {
				colours.add(image.getRGB(x, y));
			}
		}
		return colours.size();
	}

}
