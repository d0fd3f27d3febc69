package io.sluice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's files are named after the run, all in one folder. */
class ResultFilesTest {
    @TempDir
    Path dir;

    @Test
    void everyFileOfARunIsInItsFolderNamedAfterIt() throws Exception {
        ResultFiles run = new ResultFiles(dir, "bench-1");
        assertEquals(List.of(dir.resolve("bench-1.log"), dir.resolve("bench-1-gateway.log"), dir.resolve("bench-1.json"),
                dir.resolve("bench-1.svg"), dir.resolve("bench-1-processor.jfr")),
                List.of(run.log(), run.log("gateway"), run.json(), run.svg(), run.recording("processor")));
    }

    @Test
    void emptyChildLogsAreDroppedAndTheBenchsOwnLogStays() throws Exception {
        ResultFiles run = new ResultFiles(dir, "bench-1");
        Files.writeString(run.log(), "");
        Files.writeString(run.log("gateway"), "");
        Files.writeString(run.log("processor"), "WARN something\n");
        Files.writeString(dir.resolve("bench-0-clickhouse.log"), "");
        run.dropEmptyChildLogs();
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of("bench-0-clickhouse.log", "bench-1-processor.log", "bench-1.log"),
                    left.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }
}
