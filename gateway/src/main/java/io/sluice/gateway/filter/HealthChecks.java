package io.sluice.gateway.filter;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.sluice.events.SentryFields;
import io.sluice.projects.Globs;

/**
 * A transaction of a health check: its name matches one of the globs Sentry turns on for new
 * projects (Kubernetes' {@code /livez}, {@code /readyz}, uptime checks' {@code /health}, {@code /ping}).
 * A route name such as {@code GET /healthz} matches as the path alone does.
 */
final class HealthChecks {
    static final Globs NAMES = Globs.of(List.of("*healthcheck*", "*healthy*", "live", "live[z/-]*", "*[/-]live",
            "*[/-]live[z/-]*", "ready", "ready[z/-]*", "*[/-]ready", "*[/-]ready[z/-]*", "*heartbeat*", "*/health",
            "*/healthz", "*/ping"));

    private HealthChecks() {
    }

    static boolean matches(JsonNode transaction) {
        return NAMES.matches(SentryFields.text(transaction, "/transaction"));
    }
}
