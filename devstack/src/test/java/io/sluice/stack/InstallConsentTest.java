package io.sluice.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** bench installs nothing unless told to: --yes, or a "y" at the terminal. */
class InstallConsentTest {
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

    private static BufferedReader typed(String text) {
        return new BufferedReader(new StringReader(text));
    }

    @Test
    void yesAtTheTerminalInstalls() throws Exception {
        assertTrue(InstallConsent.given("install wrk?", false, true, typed("y\n"), out));
        assertEquals("install wrk? [y/N] ", printed.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anyOtherAnswerOrNoneInstallsNothing() throws Exception {
        assertFalse(InstallConsent.given("install wrk?", false, true, typed("\n"), out));
        assertFalse(InstallConsent.given("install wrk?", false, true, typed("no\n"), out));
        assertFalse(InstallConsent.given("install wrk?", false, true, typed(""), out));
    }

    @Test
    void withoutATerminalNothingIsInstalledAndNothingAsked() throws Exception {
        assertFalse(InstallConsent.given("install wrk?", false, false, typed("y\n"), out));
        assertEquals("", printed.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theYesOptionInstallsWithoutAsking() throws Exception {
        assertTrue(InstallConsent.given("install wrk?", true, false, typed(""), out));
        assertEquals("", printed.toString(StandardCharsets.UTF_8));
    }
}
