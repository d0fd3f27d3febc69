package io.sluice.processor.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateHorizonTest {
    private static final Duration DAY = Duration.ofHours(24);
    private static final Duration TWO_DAYS = Duration.ofHours(48);

    @TempDir
    Path dir;

    private final List<String> wipes = new ArrayList<>();

    @Test
    void aFirstStartRecordsTheHorizonWithoutWiping() throws Exception {
        StateHorizon.prepare(dir, DAY, this::wipe);

        assertEquals(List.of(), wipes);
        assertEquals("PT24H", recorded());
    }

    @Test
    void aStartWithTheRecordedHorizonKeepsTheState() throws Exception {
        StateHorizon.prepare(dir, DAY, this::wipe);
        StateHorizon.prepare(dir, Duration.ofMinutes(24 * 60), this::wipe);

        assertEquals(List.of(), wipes);
        assertEquals("PT24H", recorded());
    }

    @Test
    void aStartWithAnotherHorizonWipesTheStateThenRecordsTheNewHorizon() throws Exception {
        StateHorizon.prepare(dir, DAY, this::wipe);
        StateHorizon.prepare(dir, TWO_DAYS, this::wipe);

        assertEquals(List.of("wiped while PT24H was recorded"), wipes);
        assertEquals("PT48H", recorded());
    }

    @Test
    void aShorterHorizonWipesTheStateToo() throws Exception {
        StateHorizon.prepare(dir, TWO_DAYS, this::wipe);
        StateHorizon.prepare(dir, DAY, this::wipe);

        assertEquals(List.of("wiped while PT48H was recorded"), wipes);
        assertEquals("PT24H", recorded());
    }

    @Test
    void aWipeThatFailsLeavesTheFormerHorizonSoTheNextStartWipesAgain() throws Exception {
        StateHorizon.prepare(dir, DAY, this::wipe);

        assertThrows(IllegalStateException.class, () -> StateHorizon.prepare(dir, TWO_DAYS, () -> {
            throw new IllegalStateException("cannot delete the task directories");
        }));
        assertEquals("PT24H", recorded());

        StateHorizon.prepare(dir, TWO_DAYS, this::wipe);
        assertEquals(List.of("wiped while PT24H was recorded"), wipes);
        assertEquals("PT48H", recorded());
    }

    @Test
    void anUnreadableRecordWipesTheState() throws Exception {
        Files.writeString(dir.resolve(StateHorizon.FILE_NAME), "PT2");

        StateHorizon.prepare(dir, DAY, this::wipe);

        assertEquals(List.of("wiped while PT2 was recorded"), wipes);
        assertEquals("PT24H", recorded());
    }

    @Test
    void theApplicationDirectoryIsMadeWhenMissing() throws Exception {
        Path application = dir.resolve("state").resolve("sluice-processor");

        StateHorizon.prepare(application, DAY, this::wipe);

        assertEquals("PT24H\n", Files.readString(application.resolve(StateHorizon.FILE_NAME)));
    }

    private void wipe() {
        try {
            wipes.add("wiped while " + recorded() + " was recorded");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private String recorded() throws Exception {
        return Files.readString(dir.resolve(StateHorizon.FILE_NAME)).strip();
    }
}
