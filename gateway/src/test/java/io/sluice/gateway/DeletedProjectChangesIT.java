package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.kafka.TopicSetup;
import io.sluice.projects.DataScrubbing;
import io.sluice.projects.Globs;
import io.sluice.projects.InboundFilters;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.ProjectAdmin.DeletedProjectException;
import io.sluice.projects.Quota;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * A deleted project's record is never written again by a change: each change reads, changes and
 * writes back the whole record, so one that raced a delete would write the project back undeleted.
 * (Here, not in the registry module: testkit's real engines depend on the registry.)
 */
@ExtendWith(RealEngines.class)
class DeletedProjectChangesIT {
    @Test
    @Timeout(120)
    void everyChangeToADeletedProjectIsRefusedAndItsRecordStaysDeleted(Engines engines) {
        String topic = "deleted-project-changes-it.projects";
        TopicSetup.ensureTopics(KafkaSettings.from(new Settings(Map.of(KafkaSettings.BOOTSTRAP_SERVERS.name(),
                engines.kafkaBootstrapServers(), Topics.PROJECTS.name(), topic))));
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), topic)) {
            ProjectAdmin.NewProject created = admin.create("deleted");
            String token = created.token();
            String dsnKeyId = created.dsnKey().id();
            Project deleted = admin.delete(token);

            Map<String, Consumer<String>> changes = new LinkedHashMap<>();
            changes.put("rotate-key", t -> admin.rotateKey(t, Duration.ofHours(1)));
            changes.put("revoke-key", t -> admin.revokeKey(t, deleted.keys().get(0).id()));
            changes.put("rotate-dsn-key", t -> admin.rotateDsnKey(t, Duration.ofHours(1)));
            changes.put("revoke-dsn-key", t -> admin.revokeDsnKey(t, dsnKeyId));
            changes.put("set-dsn-origins", t -> admin.setDsnOrigins(t, dsnKeyId, List.of("https://shop.example.com")));
            changes.put("enable", t -> admin.setDisabled(t, false));
            changes.put("disable", t -> admin.setDisabled(t, true));
            changes.put("set-data-scrubbing", t -> admin.setDataScrubbing(t, new DataScrubbing(true, List.of())));
            changes.put("set-filters", t -> admin.setInboundFilters(t, new InboundFilters(Set.of(), Globs.NONE, Globs.NONE)));
            changes.put("set-quota", t -> admin.setQuota(t, null, new Quota(10, 20)));
            changes.put("add-route-rule", t -> admin.addRouteRule(t, "/users/{id}"));
            changes.put("remove-route-rule", t -> admin.removeRouteRule(t, "/users/{id}"));
            changes.forEach((name, change) -> {
                DeletedProjectException refused = assertThrows(DeletedProjectException.class, () -> change.accept(token), name);
                assertEquals("project " + token + " was deleted at " + deleted.lifecycle().deletedAt() + " and is not changed again",
                        refused.getMessage(), name);
            });

            assertEquals(deleted, admin.get(token));
            assertTrue(admin.get(token).disabled());
        }
    }
}
