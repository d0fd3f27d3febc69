package io.sluice.e2e;

import java.time.Duration;
import java.util.function.Function;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.gateway.Gateway;
import io.sluice.kafka.TopicSetup;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectRegistry;
import io.sluice.testkit.Await;

/**
 * A project registry following a pipeline's projects topic, as every gateway's does: a test waits on it
 * for a registry change (a project created, its keys, filters or routes changed) to be in force. Waiting
 * on a gateway's own registry sends the gateway nothing, so nothing is answered, counted or taken from a
 * quota while the test waits.
 */
public final class FollowingRegistry implements AutoCloseable {
    /** How long a registry change may take to reach a follower: generous, for a busy machine. */
    public static final Duration IN_FORCE = Duration.ofSeconds(30);
    /** How long a new follower may take to read the whole topic. */
    private static final Duration LOADED = Duration.ofSeconds(30);

    private final ProjectRegistry registry;
    private final boolean own;

    private FollowingRegistry(ProjectRegistry registry, boolean own) {
        this.registry = registry;
        this.own = own;
    }

    /** A registry of its own on the topics of {@code settings} (created if missing), once it has read the topic; the caller closes it. */
    public static FollowingRegistry start(Settings settings) throws InterruptedException {
        KafkaSettings kafka = KafkaSettings.from(settings);
        TopicSetup.ensureTopics(kafka);
        ProjectRegistry registry = new ProjectRegistry(kafka);
        if (!registry.awaitLoaded(LOADED)) {
            registry.close();
            throw new IllegalStateException("the registry " + kafka.topics().projects() + " did not load within "
                    + LOADED.toSeconds() + " s" + (registry.failure() == null ? "" : ": " + registry.failure()));
        }
        return new FollowingRegistry(registry, true);
    }

    /** The registry {@code gateway} authenticates against; the gateway closes it. */
    public static FollowingRegistry of(Gateway gateway) {
        return new FollowingRegistry(gateway.registry(), false);
    }

    /** The project with this token, or null. */
    public Project find(String token) {
        return registry.find(token);
    }

    /** The project with this numeric id (the last part of a DSN), or null. */
    public Project byNumericId(long id) {
        return registry.byNumericId(id);
    }

    /** Waits until the registry has the project. */
    public void awaitKnown(String token) {
        awaitInForce(token, true, project -> true);
    }

    /**
     * What {@code read} makes of the project once it equals {@code expected} (null while the registry does not
     * have the project); fails after {@link #IN_FORCE}.
     */
    public <T> T awaitInForce(String token, T expected, Function<Project, T> read) {
        return Await.until("project " + token + " as expected in the registry", IN_FORCE, expected, () -> {
            Project project = registry.find(token);
            return project == null ? null : read.apply(project);
        });
    }

    @Override
    public void close() {
        if (own) {
            registry.close();
        }
    }
}
