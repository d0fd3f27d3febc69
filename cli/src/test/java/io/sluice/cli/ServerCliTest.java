package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;

/** The server's command line: what the image runs. */
class ServerCliTest {
    private static final Settings NONE = new Settings(Map.of());

    @Test
    void devIsRefusedWithWhereToRunIt() {
        CliRunner.Result result = CliRunner.run(NONE, "dev");
        assertEquals(1, result.exitCode());
        assertEquals("sluice: dev is a developer command: run ./sluice in a source checkout\n", result.err());
    }

    @Test
    void benchIsRefusedWithWhereToRunIt() {
        CliRunner.Result result = CliRunner.run(NONE, "bench", "--seconds", "1");
        assertEquals(1, result.exitCode());
        assertEquals("sluice: bench is a developer command: run ./sluice in a source checkout\n", result.err());
    }

    @Test
    void anUnknownCommandExits2WithOneLine() {
        CliRunner.Result result = CliRunner.run(NONE, "upgrade");
        assertEquals(2, result.exitCode());
        assertEquals("sluice: unknown command 'upgrade' (./sluice help lists every command)\n", result.err());
    }

    @Test
    void theImagesUsageDoesNotListDevAndBench() {
        for (String help : List.of(CliRunner.run(NONE, "help").out(), CliRunner.run(NONE, "--help").out())) {
            assertFalse(help.contains("\n  dev ") || help.contains("\n  bench "), help);
            assertTrue(help.contains("\n  projects create "), help);
        }
    }

    @Test
    void configListsOnlyTheServersSettings() {
        CliRunner.Result result = CliRunner.run(NONE, "config");
        assertEquals(0, result.exitCode());
        assertEquals(ConfigurationTable.markdown(List.of()), result.out());
        assertFalse(result.out().contains("SLUICE_HOME"), result.out());
    }
}
