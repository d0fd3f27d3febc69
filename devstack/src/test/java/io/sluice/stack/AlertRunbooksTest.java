package io.sluice.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** Every alert the deploy ships leads its reader to the runbook entry that says what to do about it. */
class AlertRunbooksTest {
    private static final Path ROOT = Path.of("..");
    private static final Path RULES = ROOT.resolve("deploy/kubernetes/monitoring/prometheusrule.yaml");
    private static final String OPERATIONS = "docs/operations.md";

    @Test
    void everyAlertHasARunbookUrlToAnEntryOfOperationsThatNamesIt() throws IOException {
        JsonNode rule = new ObjectMapper(new YAMLFactory()).readTree(RULES.toFile());
        Path operations = ROOT.resolve(OPERATIONS);
        Set<String> anchors = DocsLinksTest.anchors(operations);
        List<String> operationsLines = Files.readAllLines(operations);
        List<String> wrong = new ArrayList<>();
        int alerts = 0;
        for (JsonNode group : rule.at("/spec/groups")) {
            for (JsonNode alert : group.path("rules")) {
                String name = alert.path("alert").asText();
                alerts++;
                String url = alert.at("/annotations/runbook_url").asText();
                if (!url.startsWith(OPERATIONS + "#")) {
                    wrong.add(name + ": runbook_url '" + url + "' is not " + OPERATIONS + "#<entry>");
                    continue;
                }
                String anchor = url.substring(OPERATIONS.length() + 1);
                if (!anchors.contains(anchor)) {
                    wrong.add(name + ": " + OPERATIONS + " has no heading #" + anchor);
                } else if (!entry(operationsLines, anchor).contains("`" + name + "`")) {
                    wrong.add(name + ": the entry #" + anchor + " does not name it");
                }
            }
        }
        assertEquals(10, alerts, "the alerts of " + RULES);
        assertEquals(List.of(), wrong);
    }

    /** The text under the heading with this anchor, up to the next heading. */
    private static String entry(List<String> lines, String anchor) {
        StringBuilder text = new StringBuilder();
        boolean inside = false;
        for (String line : lines) {
            if (line.startsWith("#")) {
                if (inside) {
                    break;
                }
                inside = DocsLinksTest.anchor(line.replaceFirst("^#+ ", "")).equals(anchor);
            } else if (inside) {
                text.append(line).append('\n');
            }
        }
        return text.toString();
    }
}
