package io.sluice.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.testkit.Await;

/**
 * The docs' shell blocks (DocsShellBlocksTest.PAGES), pasted as a reader would into the terminal
 * beside `./sluice dev`: each block not marked "not run" runs with bash, in a scratch directory,
 * against a local stack (its ports in place of the defaults), TOKEN and KEY set as `./sluice dev`
 * prints them, and must exit 0 without an error answer. They run in the order of PAGES, on one demo
 * project, so a block sees what the blocks before it changed (a project setting, a deleted user).
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class DocsShellBlocksIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path home;
    @TempDir
    Path scratch;

    @Test
    void everyShellBlockOfTheDocsNotMarkedNotRunRunsAgainstTheLocalStack() throws Exception {
        StackOnFreePorts ports = StackOnFreePorts.in(home);
        try (LocalStack stack = ports.start()) {
            DemoProject demo = DemoProject.ensure(ports.config().home(), stack.kafkaBootstrapServers(), "sluice.projects");
            HttpRequest send = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stack.gatewayPort() + "/api/v1/"
                            + demo.token() + "/transaction"))
                    .header("Authorization", "Bearer " + demo.key()).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString("{\"transaction\": \"GET /\"}")).build();
            assertEquals(200, Await.until(Duration.ofSeconds(60), 200, () -> LocalStackIT.status(send)), "the demo key in force");

            Map<String, String> environment = Map.of("TOKEN", demo.token(), "KEY", demo.key(),
                    "SLUICE_HOME", home.toString(),
                    "SLUICE_KAFKA_BOOTSTRAP_SERVERS", stack.kafkaBootstrapServers(),
                    "SLUICE_CLICKHOUSE_URL", stack.clickHouseUrl(),
                    "SLUICE_GATEWAY_PORT", Integer.toString(stack.gatewayPort()));
            List<String> failed = new ArrayList<>();
            int run = 0;
            for (Path page : DocsShellBlocksTest.PAGES) {
                for (ShellBlocks.Block block : ShellBlocks.of(page).blocks()) {
                    if (block.run()) {
                        run++;
                        runAsPasted(block, stack, environment).ifPresent(failure -> failed.add(page.getFileName() + " line " + failure));
                    }
                }
            }
            assertEquals(DocsShellBlocksTest.BLOCKS_RUN, run, "the blocks run");
            assertEquals(List.of(), failed);
        }
    }

    /** Runs a block as a reader pastes it; what went wrong, if anything. */
    private Optional<String> runAsPasted(ShellBlocks.Block block, LocalStack stack, Map<String, String> environment) throws Exception {
        String text = block.text()
                .replace("127.0.0.1:8080", "127.0.0.1:" + stack.gatewayPort())
                .replace("http://127.0.0.1:8123", stack.clickHouseUrl())
                .replace("./sluice ", ROOT.resolve("sluice") + " ");
        ProcessBuilder bash = new ProcessBuilder("bash", "-eo", "pipefail", "-c", text).directory(scratch.toFile()).redirectErrorStream(true);
        bash.environment().putAll(environment);
        Process process = bash.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean ended = process.waitFor(5, TimeUnit.MINUTES);
        if (ended && process.exitValue() == 0 && !output.contains("\"error\"")) {
            return Optional.empty();
        }
        return Optional.of(block.line() + (ended ? " exited " + process.exitValue() : " did not end") + ":\n" + output);
    }
}
