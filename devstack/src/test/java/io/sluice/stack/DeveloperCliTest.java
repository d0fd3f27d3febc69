package io.sluice.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import io.sluice.cli.SluiceCli;
import io.sluice.cli.Usage;
import io.sluice.config.Settings;

/** The developer's ./sluice is the server's command line plus dev and bench. */
class DeveloperCliTest {
    private static final Settings NONE = new Settings(Map.of());

    @Test
    void helpListsDevAndBench() {
        DeveloperCliRunner.Result result = DeveloperCliRunner.run(NONE, "help");
        assertEquals(0, result.exitCode());
        assertEquals(Usage.with(new DeveloperCommands()) + "\n", result.out());
        assertTrue(result.out().contains("\n  dev [--reset]") && result.out().contains("\n  bench [--seconds 10] [--profile]"));
        assertEquals(result.out(), DeveloperCliRunner.run(NONE, "--help").out());
    }

    @Test
    void helpNamesEveryCommandAndEveryOptionTheCommandLineAccepts() {
        String help = DeveloperCliRunner.run(NONE, "--help").out();
        CommandLine root = new SluiceCli(NONE, System.out, System.err, new DeveloperCommands()).commandLine();
        List<String> missing = new ArrayList<>();
        root.getSubcommands().values().forEach(command -> unlisted(command, help, missing));
        assertEquals(List.of(), missing);
    }

    /** A command's entry is the usage's lines that begin with its top-level name, with their indented continuations. */
    private static void unlisted(CommandLine command, String help, List<String> missing) {
        CommandSpec spec = command.getCommandSpec();
        if (spec.usageMessage().hidden()) {
            return;
        }
        String path = spec.qualifiedName(" ").substring(spec.root().name().length() + 1);
        String[] words = path.split(" ");
        String parent = String.join(" ", Arrays.copyOf(words, words.length - 1));
        String entries = entriesOf(words[0], help);
        Pattern named = Pattern.compile("(?m)^  " + Pattern.quote(parent) + ".*(?<![\\w-])" + Pattern.quote(words[words.length - 1]) + "(?![\\w-])");
        if (!named.matcher(entries).find()) {
            missing.add(path);
        }
        for (OptionSpec option : spec.options()) {
            if (!option.usageHelp() && !option.versionHelp() && !option.hidden() && !entries.contains(option.longestName())) {
                missing.add(path + " " + option.longestName());
            }
        }
        command.getSubcommands().values().forEach(sub -> unlisted(sub, help, missing));
    }

    private static String entriesOf(String command, String help) {
        StringBuilder entries = new StringBuilder();
        boolean inside = false;
        for (String line : help.split("\n")) {
            if (line.startsWith("  ") && !line.startsWith("   ")) {
                inside = line.startsWith("  " + command + " ") || line.equals("  " + command);
            } else if (!line.startsWith("   ")) {
                inside = false;
            }
            if (inside) {
                entries.append(line).append('\n');
            }
        }
        return entries.toString();
    }

    @Test
    void configListsTheLocalStacksSettingsAfterTheServers() {
        DeveloperCliRunner.Result result = DeveloperCliRunner.run(NONE, "config");
        assertEquals(0, result.exitCode());
        assertTrue(result.out().contains("| `SLUICE_GATEWAY_PORT` |"), result.out());
        assertTrue(result.out().endsWith("| `SLUICE_DEV_CLICKHOUSE_TCP_PORT` | `9000` | ClickHouse native-protocol port of the local stack. Allowed: between 0 and 65535. |\n"),
                result.out());
    }

    @Test
    void benchSecondsMustBeAWholeNumber() {
        DeveloperCliRunner.Result result = DeveloperCliRunner.run(NONE, "bench", "--seconds", "ten");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().equals("sluice: --seconds is a whole number (./sluice bench --help shows its options)\n"), result.err());
    }

    @Test
    void devAndBenchAreInTheSameCommandTreeAndAnswerHelp() {
        for (String command : java.util.List.of("dev", "bench")) {
            DeveloperCliRunner.Result result = DeveloperCliRunner.run(NONE, command, "--help");
            assertEquals(0, result.exitCode(), command + ": " + result.err());
            assertTrue(result.out().startsWith("Usage: sluice " + command + " "), result.out());
        }
        assertTrue(DeveloperCliRunner.run(NONE, "dev", "--help").out().contains("--reset"));
        assertTrue(DeveloperCliRunner.run(NONE, "bench", "--help").out().contains("--seconds=N"));
    }

    @Test
    void theServersCommandsAnswerHelpInTheDeveloperJarToo() {
        DeveloperCliRunner.Result result = DeveloperCliRunner.run(NONE, "projects", "create", "--help");
        assertEquals(0, result.exitCode());
        assertTrue(result.out().startsWith("Usage: sluice projects create "), result.out());
    }

    @Test
    void aMisspelledDevOptionExits2NamingIt() {
        DeveloperCliRunner.Result result = DeveloperCliRunner.run(NONE, "dev", "--rest");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().equals("sluice: unknown option '--rest' for dev; did you mean --reset? (./sluice dev --help shows its options)\n"), result.err());
    }

    @Test
    void noArgumentsPrintsTheUsageWithDevAndBench() {
        DeveloperCliRunner.Result result = DeveloperCliRunner.run(NONE);
        assertEquals(0, result.exitCode());
        assertEquals(Usage.with(new DeveloperCommands()) + "\n", result.out());
    }

    @Test
    void devLogsIntoTheLogsDirectory() {
        java.nio.file.Path file = new DeveloperCommands().logFile("dev", new Settings(Map.of("SLUICE_HOME", "target/dev-log-test")));
        assertEquals(StackConfig.from(new Settings(Map.of("SLUICE_HOME", "target/dev-log-test"))).logs().resolve("sluice.log"), file);
        assertTrue(java.nio.file.Files.isDirectory(file.getParent()));
        assertEquals(null, new DeveloperCommands().logFile("projects", NONE));
    }

    @Test
    void benchLogsIntoItsRunsFileInTheResultsFolder() {
        io.sluice.bench.run.ResultFiles run = new io.sluice.bench.run.ResultFiles(java.nio.file.Path.of("target", "bench-log-test"), "bench-1");
        java.nio.file.Path file = new DeveloperCommands(run).logFile("bench", NONE);
        assertEquals(java.nio.file.Path.of("target", "bench-log-test", "bench-1.log").toAbsolutePath(), file);
        assertTrue(java.nio.file.Files.isDirectory(file.getParent()));
    }
}
