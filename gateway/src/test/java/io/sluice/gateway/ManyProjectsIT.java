package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.kafka.TopicSetup;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.ProjectRegistry;
import io.sluice.projects.Secrets;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * Many projects in a gateway's registry, written through {@link ProjectAdmin#createAll}: the heap
 * they take, against what the same projects take as records in a hash map (how the registry held
 * them before), measured in the same JVM; and unknown tokens, which take none.
 * The million-project figures come from {@code ./sluice bench --projects}.
 */
@ExtendWith(RealEngines.class)
class ManyProjectsIT {
    private static final int PROJECTS = 50_000;
    private static final long MIB = 1024 * 1024;

    @Test
    @Timeout(300)
    void fiftyThousandProjectsTakeLessHeapThanTheirRecordsWouldAndAreAllFound(Engines engines) throws Exception {
        String topic = "many-projects-it.heap";
        create(engines, "many-projects-it.empty", 0);
        List<ProjectAdmin.NewProject> created = create(engines, topic, PROJECTS);
        long fixed;
        long before = heapAfterGc();
        // What a registry costs whatever it holds (its consumer, the decoded cache), measured apart.
        try (ProjectRegistry empty = new ProjectRegistry(engines.kafkaBootstrapServers(), "many-projects-it.empty")) {
            assertTrue(empty.awaitLoaded(Duration.ofSeconds(60)), "the empty registry did not load");
            fixed = heapAfterGc() - before;
        }
        before = heapAfterGc();
        try (ProjectRegistry registry = new ProjectRegistry(engines.kafkaBootstrapServers(), topic)) {
            assertTrue(registry.awaitLoaded(Duration.ofSeconds(120)), "the registry did not load");
            long perProject = (heapAfterGc() - before - fixed) / PROJECTS;
            Map<String, Project> records = new HashMap<>();
            registry.all().forEach(project -> records.put(project.token(), project));
            long recordsPerProject = (heapAfterGc() - before - fixed) / PROJECTS - perProject;
            System.out.printf("%,d projects: the registry %,d bytes each (%,d of index) besides %,d KiB whatever it holds; "
                            + "the same projects as records in a map %,d each; %,d MiB of records outside the heap%n",
                    PROJECTS, perProject, registry.indexBytes() / PROJECTS, fixed / 1024, recordsPerProject, registry.recordBytes() / MIB);
            Reference.reachabilityFence(records);

            assertEquals(PROJECTS, registry.size());
            // Not a tighter bound: at this size G1 puts each index array (512 KiB) in a region of its own
            // (1 MiB), about 80 bytes a project of waste that a million projects' larger arrays do not
            // have, and the consumer may still hold its last fetch (up to 8 MiB, 168 bytes a project
            // here): measured 196 to 438 bytes on a loaded machine. A registry that kept every decoded
            // project measured 826. The million-project figure (75 bytes) is the bench's.
            assertTrue(perProject < recordsPerProject, "the registry takes " + perProject
                    + " bytes a project, the records " + recordsPerProject);
            assertTrue(registry.indexBytes() / PROJECTS <= 100, registry.indexBytes() / PROJECTS + " bytes of index a project");
            for (int i = 0; i < PROJECTS; i += 997) {
                ProjectAdmin.NewProject project = created.get(i);
                assertEquals(project.name(), registry.find(project.token()).name());
                assertEquals(project.token(), registry.tokenOwningKey(Secrets.sha256(project.key())));
                assertEquals(project.token(), registry.tokenOwningDsnKey(project.dsnKey().publicKey()));
                assertEquals(project.token(), registry.byNumericId(project.numericId()).token());
            }
        }
    }

    @Test
    @Timeout(120)
    void unknownTokensAreAnsweredWithoutGrowingTheHeap(Engines engines) throws Exception {
        String topic = "many-projects-it.unknown";
        create(engines, topic, 1_000);
        try (ProjectRegistry registry = new ProjectRegistry(engines.kafkaBootstrapServers(), topic)) {
            assertTrue(registry.awaitLoaded(Duration.ofSeconds(60)), "the registry did not load");
            lookUpUnknownTokens(registry, 20_000); // warm: the decoded cache filled, the code compiled
            long index = registry.indexBytes();
            long before = heapAfterGc();
            lookUpUnknownTokens(registry, 200_000);
            long grown = heapAfterGc() - before;
            System.out.printf("200,000 unknown tokens: the heap after GC grew by %,d bytes%n", grown);
            assertEquals(index, registry.indexBytes());
            // A map that remembered each unknown token would hold about 30 MiB of them.
            assertTrue(grown < 4 * MIB, "the heap grew by " + grown / 1024 + " KiB");
        }
    }

    private static void lookUpUnknownTokens(ProjectRegistry registry, int count) {
        for (int i = 0; i < count; i++) {
            assertNull(registry.find(Secrets.newToken()));
        }
    }

    private static List<ProjectAdmin.NewProject> create(Engines engines, String topic, int count) {
        TopicSetup.ensureTopics(KafkaSettings.from(new Settings(Map.of(KafkaSettings.BOOTSTRAP_SERVERS.name(),
                engines.kafkaBootstrapServers(), Topics.PROJECTS.name(), topic))));
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), topic)) {
            return admin.createAll(IntStream.range(0, count).mapToObj(i -> "project " + i).toList());
        }
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
