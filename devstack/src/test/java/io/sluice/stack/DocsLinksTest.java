package io.sluice.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The README and the pages under docs/ (the notebook's too): every relative link leads to a file and a heading that exist; the README stays short. */
class DocsLinksTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]*)(?:#([^)\\s]+))?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a id=\"([^\"]+)\"></a>");

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
    static String anchor(String heading) {
        return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\- _]", "").replace(' ', '-');
    }

    /** The anchors a page offers: its headings' (outside code blocks) and its {@code <a id>} ones. */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        boolean fence = false;
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("```")) {
                fence = !fence;
            }
            Matcher heading = HEADING.matcher(line);
            if (!fence && heading.matches()) {
                anchors.add(anchor(heading.group(1)));
            }
            Matcher named = HTML_ANCHOR.matcher(line);
            while (!fence && named.find()) {
                anchors.add(named.group(1));
            }
        }
        return anchors;
    }

    @Test
    void everyRelativeLinkLeadsToAFileAndHeadingThatExist() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            Matcher link = LINK.matcher(Files.readString(page));
            while (link.find()) {
                String file = link.group(1);
                if (file.startsWith("http://") || file.startsWith("https://") || file.startsWith("mailto:")) {
                    continue;
                }
                Path target = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(target)) {
                    broken.add(page.getFileName() + " → " + link.group());
                } else if (link.group(2) != null && target.toString().endsWith(".md") && !anchors(target).contains(link.group(2))) {
                    broken.add(page.getFileName() + " → " + link.group() + " (no such heading)");
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void theReadmeIsTheFirstHourNotTheManual() throws IOException {
        long lines = Files.readAllLines(ROOT.resolve("README.md")).size();
        assertTrue(lines <= 300, "README.md has " + lines + " lines; reference material belongs in docs/");
    }

    @Test
    void theAnchorOfAHeadingIsGitHubs() {
        assertEquals("schema-clickhouse-database-sluice", anchor("Schema (ClickHouse database `sluice`)"));
        assertEquals("kafka-security-and-client-properties", anchor("Kafka security and client properties"));
    }
}
