package io.sluice.bench.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Where one bench run writes, all under {@code bench-results/} and named after the run:
 * {@code bench-<time>.json} and {@code .svg}, its logs ({@code bench-<time>.log} for the bench's own
 * JVM with the embedded Kafka broker, {@code bench-<time>-gateway.log} and so on for the children and
 * ClickHouse), and its JFR recordings.
 */
public record ResultFiles(Path dir, String runName) {
    public static ResultFiles forNewRun() {
        return new ResultFiles(Path.of("bench-results"), "bench-" + Instant.now().toString().replace(':', '-'));
    }

    public Path json() throws IOException {
        return file(".json");
    }

    public Path svg() throws IOException {
        return file(".svg");
    }

    /** The bench JVM's own log (its Logback file): the embedded Kafka broker, Kafka clients, Kafka Streams. */
    public Path log() {
        try {
            return file(".log");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    /** What a child process (gateway, processor, ClickHouse) writes to stdout and stderr. */
    public Path log(String child) throws IOException {
        return file("-" + child + ".log");
    }

    /**
     * Deletes the children's logs that stayed empty (a quiet gateway, ClickHouse), so the folder shows
     * what has something to say; the bench's own log stays, as its path was printed.
     */
    public void dropEmptyChildLogs() throws IOException {
        try (var files = Files.newDirectoryStream(dir, runName + "-*.log")) {
            for (Path file : files) {
                if (Files.size(file) == 0) {
                    Files.delete(file);
                }
            }
        }
    }

    Path recording(String child) throws IOException {
        return file("-" + child + ".jfr");
    }

    private Path file(String suffix) throws IOException {
        Files.createDirectories(dir);
        return dir.resolve(runName + suffix).toAbsolutePath();
    }
}
