package io.sluice.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/** What {@code ./sluice dev} prints about its demo project. */
class DemoProjectTest {

    @Test
    void aShellThatRunsThePrintedExportLineHasTheTokenAndKey() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new DemoProject("6WBs8YTmGIWkG53K-8Q2ww", "slk_lLnu-x_9Qe").printTryIt(new PrintStream(printed, true, StandardCharsets.UTF_8), 8080);
        List<String> exports = printed.toString(StandardCharsets.UTF_8).lines().map(String::strip)
                .filter(line -> line.startsWith("export ")).toList();
        assertEquals(1, exports.size(), printed.toString(StandardCharsets.UTF_8));

        Process shell = new ProcessBuilder("sh", "-c", exports.get(0) + "; printf '%s %s' \"$TOKEN\" \"$KEY\"").start();
        String seen = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertEquals(0, shell.waitFor());
        assertEquals("6WBs8YTmGIWkG53K-8Q2ww slk_lLnu-x_9Qe", seen);
    }
}
