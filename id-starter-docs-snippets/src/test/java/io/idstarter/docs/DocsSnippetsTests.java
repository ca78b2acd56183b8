package io.idstarter.docs;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The code blocks of the README and docs/*.md cannot drift from code the build compiles: every Java block is
 * preceded by a marker ({@code <!-- snippet: <file, from the repository root>#<region> -->}) and must equal that
 * region of the file, between its {@code tag::<region>[]} and {@code end::<region>[]} lines; a marked XML block
 * must equal its file (or region). Every XML block (a dependency or a whole pom.xml) names only artifacts of this build, in this build's
 * version, on this build's Spring Boot version, with the store clients' versions this build uses.
 */
class DocsSnippetsTests {

	private static final Pattern MARKER = Pattern.compile("<!-- snippet: (\\S+?)(?:#(\\S+))? -->");

	static final Path MODULE = Path.of("").toAbsolutePath();

	static final Path ROOT = MODULE.getParent();

	@Test
	void everyJavaBlockIsARegionOfCompiledCode() throws IOException {
		List<String> problems = new ArrayList<>();
		int checked = 0;
		for (Block block : blocks()) {
			if (!block.language().equals("java")) {
				continue;
			}
			checked++;
			if (block.marker() == null) {
				problems.add(block.where() + ": a Java block without a '<!-- snippet: file#region -->' line above it");
				continue;
			}
			String problem = compareWithSource(block);
			if (problem != null) {
				problems.add(problem);
			}
		}
		assertThat(checked).as("Java blocks found").isGreaterThan(15);
		assertThat(problems).as("Java blocks that differ from their source").isEmpty();
	}

	@Test
	void everyMarkedXmlBlockIsItsFile() throws IOException {
		List<String> problems = new ArrayList<>();
		for (Block block : blocks()) {
			if (block.language().equals("xml") && block.marker() != null) {
				String problem = compareWithSource(block);
				if (problem != null) {
					problems.add(problem);
				}
			}
		}
		assertThat(problems).isEmpty();
	}

	@Test
	void everyPomOfTheDocsIsShownInTheDocs() throws IOException {
		Set<String> shown = new TreeSet<>();
		for (Block block : blocks()) {
			if (block.marker() != null) {
				shown.add(block.marker().group(1));
			}
		}
		List<String> poms;
		try (Stream<Path> files = Files.walk(MODULE.resolve("src/docs/poms"))) {
			poms = files.filter((file) -> file.getFileName().toString().equals("pom.xml"))
				.map((file) -> ROOT.relativize(file).toString())
				.sorted()
				.toList();
		}
		assertThat(poms).as("one pom.xml per mode").hasSize(7);
		assertThat(shown).containsAll(poms);
	}

	@Test
	void everyXmlBlockNamesThisBuildsArtifactsAndVersions() throws Exception {
		Build build = Build.read();
		List<String> problems = new ArrayList<>();
		int checked = 0;
		for (Block block : blocks()) {
			if (!block.language().equals("xml")) {
				continue;
			}
			checked++;
			String xml = block.text().replaceFirst("^<\\?xml[^>]*>", "");
			Document document = DocumentBuilderFactory.newInstance()
				.newDocumentBuilder()
				.parse(new InputSource(new StringReader("<snippet>" + xml + "</snippet>")));
			for (Element element : elements(document, "parent")) {
				if ("spring-boot-starter-parent".equals(child(element, "artifactId"))
						&& !build.bootVersion().equals(child(element, "version"))) {
					problems.add(block.where() + ": Spring Boot parent " + child(element, "version")
							+ ", the build uses " + build.bootVersion());
				}
			}
			for (Element element : elements(document, "dependency")) {
				problems.addAll(build.check(block.where(), child(element, "groupId"), child(element, "artifactId"),
						child(element, "version")));
			}
		}
		assertThat(checked).as("XML blocks found").isGreaterThanOrEqualTo(7);
		assertThat(problems).isEmpty();
	}

	@Test
	void aBlockThatDiffersFromItsSourceIsReported() throws IOException {
		String file = "id-starter-docs-snippets/src/main/java/com/example/store/StoreConfiguration.java";
		Matcher marker = MARKER.matcher("<!-- snippet: " + file + "#bean -->");
		assertThat(marker.matches()).isTrue();
		String source = region(Files.readAllLines(ROOT.resolve(file)), "bean");
		assertThat(compareWithSource(new Block("README.md:1", "java", source, marker))).isNull();
		assertThat(compareWithSource(new Block("README.md:1", "java", source.replace("myLeaseStore", "other"),
				marker))).startsWith("README.md:1 differs from " + file + "#bean");
		Matcher missing = MARKER.matcher("<!-- snippet: " + file + "#nope -->");
		assertThat(missing.matches()).isTrue();
		assertThat(compareWithSource(new Block("README.md:1", "java", source, missing)))
			.contains("has no region 'nope'");
	}

	private static String compareWithSource(Block block) throws IOException {
		Matcher marker = block.marker();
		Path file = ROOT.resolve(marker.group(1));
		if (!Files.isRegularFile(file)) {
			return block.where() + ": " + marker.group(1) + " does not exist";
		}
		String source = (marker.group(2) != null) ? region(Files.readAllLines(file), marker.group(2))
				: Files.readString(file, StandardCharsets.UTF_8).stripTrailing();
		if (source == null) {
			return block.where() + ": " + marker.group(1) + " has no region '" + marker.group(2) + "'";
		}
		if (!source.equals(block.text())) {
			return block.where() + " differs from " + marker.group(1) + "#" + marker.group(2) + "; the source reads:\n"
					+ source;
		}
		return null;
	}

	/**
	 * Returns the lines between {@code tag::name[]} and {@code end::name[]}, without the marker lines of any region
	 * and without their common indentation.
	 */
	static String region(List<String> lines, String name) {
		int start = -1;
		int end = -1;
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).contains("tag::" + name + "[]")) {
				start = i + 1;
			}
			else if (lines.get(i).contains("end::" + name + "[]")) {
				end = i;
			}
		}
		if (start < 0 || end < start) {
			return null;
		}
		List<String> region = lines.subList(start, end)
			.stream()
			.filter((line) -> !line.contains("tag::") && !line.contains("end::"))
			.toList();
		int indent = region.stream()
			.filter((line) -> !line.isBlank())
			.mapToInt((line) -> line.length() - line.stripLeading().length())
			.min()
			.orElse(0);
		return String.join("\n", region.stream()
			.map((line) -> line.isBlank() ? "" : line.substring(indent).stripTrailing())
			.toList()).strip();
	}

	static List<Block> blocks() throws IOException {
		List<Block> blocks = new ArrayList<>();
		for (Path file : markdownFiles()) {
			List<String> lines = Files.readAllLines(file);
			for (int i = 0; i < lines.size(); i++) {
				String line = lines.get(i);
				if (!line.startsWith("```") || line.length() == 3) {
					continue;
				}
				String language = line.substring(3).strip();
				int open = i;
				StringBuilder text = new StringBuilder();
				for (i++; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
					text.append(lines.get(i).stripTrailing()).append('\n');
				}
				Matcher marker = null;
				for (int j = open - 1; j >= 0; j--) {
					if (!lines.get(j).isBlank()) {
						Matcher candidate = MARKER.matcher(lines.get(j).strip());
						marker = candidate.matches() ? candidate : null;
						break;
					}
				}
				blocks.add(new Block(ROOT.relativize(file) + ":" + (open + 1), language, text.toString().strip(),
						marker));
			}
		}
		return blocks;
	}

	static List<Path> markdownFiles() throws IOException {
		List<Path> files = new ArrayList<>();
		files.add(ROOT.resolve("README.md"));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(files::add);
		}
		return files;
	}

	private static List<Element> elements(Document document, String name) {
		List<Element> elements = new ArrayList<>();
		NodeList nodes = document.getElementsByTagName(name);
		for (int i = 0; i < nodes.getLength(); i++) {
			elements.add((Element) nodes.item(i));
		}
		return elements;
	}

	private static String child(Element element, String name) {
		for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element child && child.getTagName().equals(name)) {
				return child.getTextContent().strip();
			}
		}
		return null;
	}

	/**
	 * A fenced code block of the docs.
	 *
	 * @param where file and line of the opening fence
	 * @param language the fence's info string
	 * @param text the block's lines, without trailing blanks
	 * @param marker the snippet marker above the block, or {@code null}
	 */
	record Block(String where, String language, String text, Matcher marker) {

	}

	/**
	 * What the build is made of: its version, its modules' artifact IDs, the Spring Boot version and the versions of
	 * the store clients it declares (root pom.xml), and what Spring Boot manages (its BOM in the local repository).
	 */
	record Build(String version, Set<String> modules, String bootVersion, Map<String, String> clients,
			Set<String> bootManaged) {

		static Build read() throws Exception {
			Document root = parse(ROOT.resolve("pom.xml"));
			Element project = root.getDocumentElement();
			Element properties = (Element) project.getElementsByTagName("properties").item(0);
			// Every module's version is the parent's ${revision} property.
			String version = child(project, "version").replace("${revision}", child(properties, "revision"));
			String boot = child(properties, "spring-boot.version");
			Set<String> modules = new LinkedHashSet<>();
			NodeList names = project.getElementsByTagName("module");
			for (int i = 0; i < names.getLength(); i++) {
				modules.add(names.item(i).getTextContent().strip());
			}
			Map<String, String> clients = Map.of("org.apache.curator:curator-framework",
					child(properties, "curator.version"), "io.etcd:jetcd-core", child(properties, "jetcd.version"));
			Path bom = Path.of(System.getProperty("user.home"), ".m2", "repository", "org", "springframework", "boot",
					"spring-boot-dependencies", boot, "spring-boot-dependencies-" + boot + ".pom");
			Set<String> managed = new TreeSet<>();
			if (Files.isRegularFile(bom)) {
				NodeList artifacts = parse(bom).getElementsByTagName("artifactId");
				for (int i = 0; i < artifacts.getLength(); i++) {
					managed.add(artifacts.item(i).getTextContent().strip());
				}
			}
			return new Build(version, modules, boot, clients, managed);
		}

		private static Document parse(Path file) throws Exception {
			return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
		}

		List<String> check(String where, String groupId, String artifactId, String version) {
			List<String> problems = new ArrayList<>();
			String name = groupId + ":" + artifactId;
			if ("io.idstarter".equals(groupId)) {
				if (!this.modules.contains(artifactId)) {
					problems.add(where + ": " + name + " is not a module of the build " + this.modules);
				}
				if (version != null && !version.equals(this.version)) {
					problems.add(where + ": " + name + ":" + version + ", the build is " + this.version);
				}
			}
			else if (this.clients.containsKey(name)) {
				if (version != null && !version.equals(this.clients.get(name))) {
					problems.add(where + ": " + name + ":" + version + ", the build tests with "
							+ this.clients.get(name));
				}
			}
			else if (version == null && !this.bootManaged.isEmpty() && !this.bootManaged.contains(artifactId)) {
				problems.add(where + ": " + name + " has no version and Spring Boot " + this.bootVersion
						+ " does not manage it");
			}
			return problems;
		}

	}

}
