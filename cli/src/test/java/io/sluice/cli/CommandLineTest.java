package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;
import picocli.CommandLine;

/** The server's command line as picocli declares it: help everywhere, the version, strict options. */
class CommandLineTest {
    private static final Settings NONE = new Settings(Map.of());

    /** Every command path of a command tree, depth first: "projects", "projects create", … */
    public static List<String> commandPaths(CommandLine command) {
        List<String> paths = new ArrayList<>();
        command.getSubcommands().forEach((name, sub) -> {
            paths.add(name);
            commandPaths(sub).forEach(path -> paths.add(name + " " + path));
        });
        return paths;
    }

    @Test
    void theServersCommandTreeHoldsEveryCommand() {
        assertEquals(List.of("projects", "projects create", "projects list", "projects show", "projects rotate-key",
                        "projects revoke-key", "projects rotate-dsn-key", "projects revoke-dsn-key", "projects set-dsn-origins",
                        "projects disable", "projects enable", "projects set-quota", "schema", "schema apply", "replay",
                        "send-test-event", "stats", "demo-data", "gateway", "processor", "config", "help", "dev", "bench"),
                commandPaths(new SluiceCli(NONE, System.out, System.err).commandLine()));
    }

    @Test
    void everyCommandAnswersHelpWithItsUsageAndExit0() {
        for (String path : commandPaths(new SluiceCli(NONE, System.out, System.err).commandLine())) {
            List<String> argv = new ArrayList<>(List.of(path.split(" ")));
            argv.add("--help");
            CliRunner.Result result = CliRunner.run(NONE, argv.toArray(String[]::new));
            assertEquals(0, result.exitCode(), path + ": " + result.err());
            assertTrue(result.out().startsWith("Usage: sluice " + path + " "), path + ": " + result.out());
            assertTrue(result.out().contains("-h, --help"), path + ": " + result.out());
            assertEquals("", result.err(), path);
        }
    }

    @Test
    void theTopLevelHelpOptionShowsTheCommandsAndExits0() {
        CliRunner.Result result = CliRunner.run(NONE, "--help");
        assertEquals(0, result.exitCode());
        assertTrue(result.out().startsWith("Usage: sluice [-hV] [COMMAND]\n"), result.out());
        assertTrue(result.out().contains("\n  projects ") && result.out().contains("\n  send-test-event "), result.out());
    }

    @Test
    void helpWithACommandShowsThatCommandsHelp() {
        CliRunner.Result help = CliRunner.run(NONE, "help", "projects", "create");
        assertEquals(0, help.exitCode());
        assertEquals(CliRunner.run(NONE, "projects", "create", "--help").out(), help.out());
        assertTrue(help.out().contains("--rate=N"), help.out());
    }

    @Test
    void versionPrintsTheJarsImplementationVersion() {
        CliRunner.Result result = CliRunner.run(NONE, "--version");
        assertEquals(0, result.exitCode());
        // Run from classes there is no jar manifest; VersionIT checks the built jar's.
        assertEquals("sluice development build\n", result.out());
    }

    @Test
    void noArgumentsPrintsTheUsageListingEveryCommand() {
        CliRunner.Result result = CliRunner.run(NONE);
        assertEquals(0, result.exitCode());
        assertEquals(Usage.TEXT + "\n", result.out());
        assertEquals(CliRunner.run(NONE, "help").out(), result.out());
    }

    @Test
    void aMisspelledOptionExits2NamingItBeforeReachingKafka() {
        // No Kafka is configured here: the old parser would have tried to create the project (exit 1).
        CliRunner.Result result = CliRunner.run(NONE, "projects", "create", "--name", "x", "--rte", "5");
        assertEquals(2, result.exitCode());
        assertEquals("sluice: Unknown options: '--rte', '5'\n" + Usage.TEXT + "\n", result.err());
        assertEquals("", result.out());
    }

    @Test
    void anUnexpectedArgumentExits2() {
        CliRunner.Result result = CliRunner.run(NONE, "config", "extra");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("sluice: Unmatched argument at index 1: 'extra'\n"), result.err());
    }

    @Test
    void aMissingActionNamesTheActions() {
        CliRunner.Result result = CliRunner.run(NONE, "projects");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("sluice: projects needs an action: create, list, show, rotate-key"), result.err());
        assertTrue(CliRunner.run(NONE, "projects", "frobnicate").err().startsWith("sluice: unknown projects action 'frobnicate'\n"));
        assertTrue(CliRunner.run(NONE, "schema").err().startsWith("sluice: schema needs an action: apply\n"));
    }

    @Test
    void aMissingRequiredOptionIsNamed() {
        CliRunner.Result result = CliRunner.run(NONE, "projects", "create");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("sluice: --name is required\nusage:"), result.err());
    }
}
