package io.sluice.gateway.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.sluice.admin.AdminChecks;
import io.sluice.admin.Health;
import io.sluice.admin.Readiness;
import io.sluice.gateway.publish.PublishHealth;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectRegistry;

/**
 * What the gateway's admin port says: ready while the project registry is loaded and still
 * following its topic, Kafka answers, publishes do not all fail, its event loops and read workers
 * keep up ({@link Stalls}) and it is not shutting down;
 * degraded while a project's registry record cannot be read, or while quotas are not shared between
 * gateways (the shared usage unreachable: each quota split evenly, the gateway still serving).
 */
public final class GatewayChecks implements AdminChecks {
    private final BooleanSupplier draining;
    private final ProjectRegistry registry;
    private final KafkaReachability kafka;
    private final PublishHealth publishing;
    private final Supplier<String> quotasNotShared;
    private final Stalls stalls;

    /** @param quotasNotShared why quotas are not shared between gateways now, or null while they are */
    public GatewayChecks(BooleanSupplier draining, ProjectRegistry registry, KafkaReachability kafka, PublishHealth publishing,
                         Supplier<String> quotasNotShared, Stalls stalls) {
        this.draining = draining;
        this.registry = registry;
        this.kafka = kafka;
        this.publishing = publishing;
        this.quotasNotShared = quotasNotShared;
        this.stalls = stalls;
    }

    @Override
    public Health health() {
        return Health.OK;
    }

    @Override
    public Readiness readiness() {
        return new Readiness(notReadyReasons(), degradedReasons(), Map.of());
    }

    private List<String> notReadyReasons() {
        List<String> reasons = new ArrayList<>();
        if (draining.getAsBoolean()) {
            reasons.add("shutting down");
        }
        if (!registry.isLoaded()) {
            reasons.add("project registry not loaded");
        }
        if (registry.failure() != null) {
            reasons.add(registry.failure());
        }
        if (!kafka.reachable()) {
            reasons.add("Kafka unreachable");
        }
        String publishFailing = publishing.failingReason();
        if (publishFailing != null) {
            reasons.add(publishFailing);
        }
        reasons.addAll(stalls.reasons());
        return reasons;
    }

    /**
     * What fails for some requests only: one project with a malformed registry record is refused
     * (fail closed), and must not take the gateway out of rotation for all.
     */
    private List<String> degradedReasons() {
        List<String> reasons = new ArrayList<>();
        String quotas = quotasNotShared.get();
        if (quotas != null) {
            reasons.add(quotas);
        }
        // The numeric id, public, not the token: this body is read by probes and dashboards.
        registry.unreadableProjects().forEach((token, why) -> reasons.add("project " + Project.numericIdOf(token)
                + " refused (503 project_unavailable): its latest registry record cannot be read: " + why));
        return reasons;
    }
}
