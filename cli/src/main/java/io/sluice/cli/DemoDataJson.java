package io.sluice.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The last line of {@code ./sluice demo-data --json}: what a script (the bench, a newcomer's) needs. */
final class DemoDataJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DemoDataJson() {
    }

    static String of(DemoData.Summary summary) {
        ObjectNode node = JSON.createObjectNode();
        node.put("huge_project", summary.hugeProject());
        node.put("small_project", summary.smallProject());
        node.put("scale", summary.scale());
        node.put("small_projects", summary.smallProjects());
        node.put("transactions", summary.transactions());
        node.put("errors", summary.errors());
        node.put("seconds", Math.round(summary.took().toMillis() / 100.0) / 10.0);
        return node.toString();
    }
}
