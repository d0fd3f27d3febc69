package io.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/** Where one bench run writes: {@code bench-results/bench-<time>.json} and its JFR recordings. */
record ResultFiles(Path dir, String runName) {
    static ResultFiles forNewRun() {
        return new ResultFiles(Path.of("bench-results"), "bench-" + Instant.now().toString().replace(':', '-'));
    }

    Path json() throws IOException {
        Files.createDirectories(dir);
        return dir.resolve(runName + ".json");
    }

    Path recording(String child) throws IOException {
        Files.createDirectories(dir);
        return dir.resolve(runName + "-" + child + ".jfr").toAbsolutePath();
    }
}
