package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.processor.ops.KafkaContact;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.HttpText;
import io.sluice.testkit.RealEngines;

/**
 * Kafka Streams stays RUNNING while no broker answers, so its state alone kept /readyz 200 through
 * a Kafka outage. Once no broker has answered for longer than {@link KafkaContact#UNREACHABLE_AFTER}
 * (30 s), /readyz is 503 and says so; a shorter silence leaves it 200 (a broker's restart must not
 * flap readiness), and it is 200 again once Kafka answers. Uses a broker of its own to stop it.
 */
@ExtendWith(RealEngines.class)
class ReadinessDuringKafkaOutageIT {
    private static final String READY = "200 {\"status\":\"ready\",\"streams\":\"RUNNING\"}";
    private static final Pattern UNREACHABLE = Pattern.compile(
            "503 \\{\"status\":\"not_ready\",\"streams\":\"RUNNING\",\"reasons\":\\[\"Kafka unreachable: no broker has answered for (\\d+) s\"]}");
    /** Each round asks a broker every second, waiting at most 2 s: the 503 comes this soon after the bound. */
    private static final Duration SLACK = Duration.ofSeconds(10);
    /** At most this passes between two of the answers it counts, while Kafka answers: a second's pause and a 2 s timeout. */
    private static final Duration ROUND = Duration.ofSeconds(3);
    /** Readiness is still 200 this long into the outage: well within the bound, and past a round's failure. */
    private static final Duration SHORT_OUTAGE = Duration.ofSeconds(20);

    @TempDir
    Path workDir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void readinessIs503WithTheReasonOnceKafkaIsSilentLongerThanTheBoundAnd200OnceItAnswers(Engines engines) throws Exception {
        try (ProcessorOnItsOwnBroker pipeline = ProcessorOnItsOwnBroker.startWithTenStored(engines, workDir, "readyout")) {
            String readyz = pipeline.adminUrl("/readyz");
            assertEquals(READY, Await.until("ready before the outage", Duration.ofSeconds(30), READY,
                    () -> HttpText.statusAndBody(readyz)));

            long stopped = System.nanoTime(); // the last answer came before this, or while the broker shuts down
            pipeline.stopKafka();
            Thread.sleep(Math.max(0, SHORT_OUTAGE.toMillis() - Duration.ofNanos(System.nanoTime() - stopped).toMillis()));
            assertEquals(READY, HttpText.statusAndBody(readyz), "a silence shorter than the bound leaves readiness as it was");

            Duration deadline = KafkaContact.UNREACHABLE_AFTER.plus(SLACK).minus(Duration.ofNanos(System.nanoTime() - stopped));
            assertEquals("Kafka unreachable", Await.until("503: Kafka unreachable", deadline, "Kafka unreachable", () -> {
                String seen = HttpText.statusAndBody(readyz);
                return UNREACHABLE.matcher(seen).matches() ? "Kafka unreachable" : seen; // else what it said instead
            }));
            long silentFor = Duration.ofNanos(System.nanoTime() - stopped).toSeconds();
            var said = UNREACHABLE.matcher(HttpText.statusAndBody(readyz));
            assertTrue(said.matches());
            long reported = Long.parseLong(said.group(1));
            assertTrue(reported >= KafkaContact.UNREACHABLE_AFTER.toSeconds() && reported <= silentFor + ROUND.toSeconds(),
                    "the silence it reports (" + reported + " s) is past the bound and no longer than the outage (" + silentFor
                            + " s) and a round");

            pipeline.startKafka();
            assertEquals(READY, Await.until("ready once Kafka answers", Duration.ofSeconds(90), READY,
                    () -> HttpText.statusAndBody(readyz)));
        }
    }
}
