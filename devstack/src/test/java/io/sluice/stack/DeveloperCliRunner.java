package io.sluice.stack;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import io.sluice.cli.SluiceCli;
import io.sluice.config.Settings;

/** Runs the developer's {@code ./sluice} command line in this JVM and captures what it prints. */
final class DeveloperCliRunner {
    private DeveloperCliRunner() {
    }

    static Result run(Settings settings, String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = new SluiceCli(settings, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new DeveloperCommands()).run(argv);
        return new Result(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    record Result(int exitCode, String out, String err) {
    }
}
