package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;

class ReplayArgumentsTest {
    private static final Settings NONE = new Settings(Map.of());

    @Test
    void replayNeedsAFromTime() {
        CliRunner.Result result = CliRunner.run(NONE, "replay");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("sluice: Missing required option: '--from=ISO_TIME'"), result.err());
    }

    @Test
    void aTimeThatIsNotIso8601IsNamedInTheError() {
        CliRunner.Result result = CliRunner.run(NONE, "replay", "--from", "yesterday");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("sluice: --from and --to are ISO 8601 times"), result.err());
    }

    @Test
    void anUnknownKindOfTableIsRefused() {
        CliRunner.Result result = CliRunner.run(NONE, "replay", "--from", "2026-11-22T00:00:00Z", "--what", "everything");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("sluice: --what is history, errors, aggregates or all, not everything"), result.err());
    }

    @Test
    void fromMustBeBeforeTo() {
        CliRunner.Result result = CliRunner.run(NONE, "replay", "--from", "2026-11-22T10:00:00Z", "--to", "2026-11-22T09:00:00Z");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().contains("must be before --to"), result.err());
    }
}
