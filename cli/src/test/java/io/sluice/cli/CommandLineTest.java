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
                        "projects disable", "projects enable", "projects set-quota", "projects set-scrubbing", "projects set-filters", "projects routes", "projects routes add",
                        "projects routes list", "projects routes remove", "projects delete-user", "projects delete", "projects set-retention", "schema", "schema apply", "replay",
                        "doctor", "dead-letters", "dead-letters list", "dead-letters show", "dead-letters replay", "send-test-event", "stats", "demo-data", "gateway", "processor", "config", "completion", "help", "dev", "bench"),
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
    void theHelpOptionPrintsWhatHelpPrints() {
        CliRunner.Result result = CliRunner.run(NONE, "--help");
        assertEquals(0, result.exitCode());
        assertEquals(Usage.TEXT + "\n", result.out());
        assertEquals(CliRunner.run(NONE, "help").out(), result.out());
        assertEquals(result.out(), CliRunner.run(NONE, "-h").out());
    }

    @Test
    void helpWithACommandShowsThatCommandsHelp() {
        CliRunner.Result help = CliRunner.run(NONE, "help", "projects", "create");
        assertEquals(0, help.exitCode());
        assertEquals(CliRunner.run(NONE, "projects", "create", "--help").out(), help.out());
        assertTrue(help.out().contains("--rate=N"), help.out());
    }

    @Test
    void projectsRoutesNeedsAnActionAndAPatternThatIsOne() {
        CliRunner.Result noAction = CliRunner.run(NONE, "projects", "routes");
        assertEquals(2, noAction.exitCode());
        assertTrue(noAction.err().startsWith("sluice: projects routes needs an action: add, list, remove"), noAction.err());
        // Refused before Kafka is asked: these settings name no reachable broker.
        CliRunner.Result star = CliRunner.run(NONE, "projects", "routes", "add", "--token", "t", "--pattern", "/shop-*/x");
        assertEquals(2, star.exitCode());
        assertTrue(star.err().startsWith("sluice: * stands for a whole segment (/*/), not part of one: /shop-*/x"), star.err());
        CliRunner.Result none = CliRunner.run(NONE, "projects", "routes", "add", "--token", "t");
        assertEquals(2, none.exitCode());
        assertTrue(none.err().startsWith("sluice: ") && none.err().contains("--pattern"), none.err());
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
    void aMisspelledOptionExits2WithOneLineSuggestingTheOptionBeforeReachingKafka() {
        // No Kafka is configured here: the old parser would have tried to create the project (exit 1).
        CliRunner.Result result = CliRunner.run(NONE, "projects", "create", "--name", "x", "--rte", "5");
        assertEquals(2, result.exitCode());
        assertEquals("sluice: unknown option '--rte' for projects create; did you mean --rate? "
                + "(./sluice projects create --help shows its options)\n", result.err());
        assertEquals("", result.out());
    }

    @Test
    void anUnknownQuotaEndpointExits2NamingEveryQuotaAnEndpointHasSessionsIncluded() {
        CliRunner.Result result = CliRunner.run(NONE, "projects", "set-quota", "6WBs8YTmGIWkG53K-8Q2ww", "--rate", "1",
                "--endpoint", "sessions");
        assertEquals(2, result.exitCode());
        assertEquals("sluice: --endpoint is transaction, project or session, not sessions (./sluice projects set-quota --help "
                + "shows its options)\n", result.err());
        assertTrue(CliRunner.run(NONE, "projects", "set-quota", "--help").out().contains("--endpoint=transaction|project|session"));
    }

    @Test
    void aMisspelledCommandExits2WithOneLineSuggestingTheCommand() {
        CliRunner.Result result = CliRunner.run(NONE, "projcts", "list");
        assertEquals(2, result.exitCode());
        assertEquals("sluice: unknown command 'projcts'; did you mean projects? (./sluice help lists every command)\n", result.err());
        assertEquals("", result.out());
    }

    @Test
    void aMisspelledActionExits2SuggestingTheAction() {
        CliRunner.Result result = CliRunner.run(NONE, "projects", "craete");
        assertEquals(2, result.exitCode());
        assertEquals("sluice: unknown command 'projects craete'; did you mean create? (./sluice projects --help shows its options)\n",
                result.err());
    }

    @Test
    void aCommandThatDoesNotExistFailsEvenWithHelp() {
        CliRunner.Result result = CliRunner.run(NONE, "frobnicate", "--help");
        assertEquals(2, result.exitCode());
        assertEquals("sluice: unknown command 'frobnicate' (./sluice help lists every command)\n", result.err());
        assertEquals("", result.out());
        assertEquals(2, CliRunner.run(NONE, "projects", "frobnicate", "--help").exitCode());
    }

    @Test
    void setScrubbingCalledWronglyExits2BeforeReachingKafka() {
        String tooMany = String.join(",", java.util.Collections.nCopies(51, "name"));
        java.util.Map<List<String>, String> wrong = java.util.Map.of(
                List.of("projects", "set-scrubbing", "--off"), "sluice: Missing required parameter: 'TOKEN'",
                List.of("projects", "set-scrubbing", "tok"), "sluice: set-scrubbing needs TOKEN and --on, --off or --sensitive-fields",
                List.of("projects", "set-scrubbing", "tok", "--on", "--off"), "sluice: set-scrubbing takes --on or --off, not both",
                List.of("projects", "set-scrubbing", "tok", "--sensitive-fields", tooMany), "sluice: at most 50 sensitive field names, got 51");
        wrong.forEach((argv, message) -> {
            CliRunner.Result result = CliRunner.run(NONE, argv.toArray(String[]::new));
            assertEquals(2, result.exitCode(), argv + ": " + result.err());
            assertTrue(result.err().startsWith(message), argv + ": " + result.err());
        });
    }

    @Test
    void setFiltersCalledWronglyExits2BeforeReachingKafka() {
        java.util.Map<List<String>, String> wrong = java.util.Map.of(
                List.of("projects", "set-filters", "--on", "localhost"), "sluice: Missing required parameter: 'TOKEN'",
                List.of("projects", "set-filters", "tok"),
                "sluice: set-filters needs TOKEN and --on, --off, --error-messages or --releases",
                List.of("projects", "set-filters", "tok", "--on", "robots"), "sluice: no inbound filter is called 'robots'; there are "
                        + "health_check, localhost, browser_extensions, web_crawlers, legacy_browsers",
                List.of("projects", "set-filters", "tok", "--on", "release"),
                "sluice: 'release' is set with its patterns (--error-messages, --releases), not switched",
                List.of("projects", "set-filters", "tok", "--on", "localhost", "--off", "localhost"),
                "sluice: set-filters cannot switch a filter both --on and --off",
                List.of("projects", "set-filters", "tok", "--releases", "x".repeat(257)),
                "sluice: --releases: a pattern has at most 256 characters, got 257");
        wrong.forEach((argv, message) -> {
            CliRunner.Result result = CliRunner.run(NONE, argv.toArray(String[]::new));
            assertEquals(2, result.exitCode(), argv + ": " + result.err());
            assertTrue(result.err().startsWith(message), argv + ": " + result.err());
        });
    }

    @Test
    void anUnexpectedArgumentExits2() {
        CliRunner.Result result = CliRunner.run(NONE, "config", "extra");
        assertEquals(2, result.exitCode());
        assertEquals("sluice: unexpected argument 'extra' for config (./sluice config --help shows its options)\n", result.err());
    }

    @Test
    void aMissingActionNamesTheActions() {
        CliRunner.Result result = CliRunner.run(NONE, "projects");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("sluice: projects needs an action: create, list, show, rotate-key"), result.err());
        assertTrue(CliRunner.run(NONE, "schema").err().startsWith("sluice: schema needs an action: apply ("));
    }

    @Test
    void aMissingRequiredOptionIsNamedOnOneLine() {
        CliRunner.Result result = CliRunner.run(NONE, "projects", "create");
        assertEquals(2, result.exitCode());
        assertEquals("sluice: Missing required option: '--name=NAME' (./sluice projects create --help shows its options)\n",
                result.err());
    }

    @Test
    void requiredOptionsAndArgumentsAreShownAsRequired() {
        String create = CliRunner.run(NONE, "projects", "create", "--help").out();
        assertTrue(create.contains(" --name=NAME ") && !create.contains("[--name=NAME]"), create);
        String setQuota = CliRunner.run(NONE, "projects", "set-quota", "--help").out();
        assertTrue(setQuota.contains(" --rate=N ") && !setQuota.contains("[--rate=N]") && setQuota.contains(" TOKEN"), setQuota);
        assertTrue(!setQuota.contains("[TOKEN]"), setQuota);
        String sendTestEvent = CliRunner.run(NONE, "send-test-event", "--help").out();
        assertTrue(sendTestEvent.contains(" --key=KEY ") && sendTestEvent.contains(" --token=TOKEN"), sendTestEvent);
        assertTrue(CliRunner.run(NONE, "replay", "--help").out().contains(" --from=ISO_TIME "));
        assertTrue(CliRunner.run(NONE, "stats", "--help").out().contains(" --project=TOKEN "));
    }

    @Test
    void completionPrintsABashScriptThatCompletesCommandsAndOptions() {
        CliRunner.Result result = CliRunner.run(NONE, "completion");
        assertEquals(0, result.exitCode(), result.err());
        assertTrue(result.out().startsWith("#!/usr/bin/env bash"), result.out());
        assertTrue(result.out().contains("complete -F _complete_sluice -o default sluice"), result.out());
        assertTrue(result.out().contains("projects schema replay"), result.out());
        assertTrue(result.out().contains("--rate"), result.out());
    }
}
