package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sluice.events.RouteRules;

/** A project's route rules in its registry record. */
class ProjectRouteRulesTest {
    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    private static Project project() {
        return new Project("tok", "shop", false, List.of(ProjectKey.of("k1", Secrets.newKey(), null)), NOW);
    }

    @Test
    void routeRulesSurviveTheRegistryRecordInTheirOrder() throws Exception {
        Project project = project().withRouteRules(RouteRules.of(List.of("/shops/*/orders/*", "/shops/{shop}/**")));
        byte[] json = ProjectJson.write(project);
        assertEquals(true, new String(json, StandardCharsets.UTF_8).contains("\"route_rules\":[\"/shops/*/orders/*\",\"/shops/{shop}/**\"]"),
                new String(json, StandardCharsets.UTF_8));
        assertEquals(List.of("/shops/*/orders/*", "/shops/{shop}/**"), ProjectJson.read(json).routeRules().patterns());
    }

    @Test
    void aRecordWrittenBeforeRouteRulesReadsWithNone() throws Exception {
        String old = "{\"token\":\"tok\",\"name\":\"shop\",\"disabled\":false,\"keys\":[],\"created_at\":\"2026-11-22T12:00:00Z\"}";
        assertEquals(RouteRules.NONE, ProjectJson.read(old.getBytes(StandardCharsets.UTF_8)).routeRules());
        String nullRules = old.replace("}", ",\"route_rules\":null}");
        assertEquals(RouteRules.NONE, ProjectJson.read(nullRules.getBytes(StandardCharsets.UTF_8)).routeRules());
    }

    @Test
    void aRecordWithAPatternThatIsNoneIsUnreadable() {
        String bad = "{\"token\":\"tok\",\"name\":\"shop\",\"disabled\":false,\"keys\":[],\"created_at\":\"2026-11-22T12:00:00Z\","
                + "\"route_rules\":[\"shops/*\"]}";
        assertThrows(IOException.class, () -> ProjectJson.read(bad.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void otherChangesKeepTheRouteRules() {
        Project project = project().withRouteRules(RouteRules.of(List.of("/a/*")));
        assertEquals(project.routeRules(), project.withDisabled(true).withQuota(null, new Quota(1, 1)).withKeys(List.of())
                .withDsnKeys(List.of()).routeRules());
    }
}
