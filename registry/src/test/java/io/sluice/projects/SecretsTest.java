package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class SecretsTest {
    @Test
    void aTokenNeverBeginsWithADashSoACommandLineCannotTakeItForAnOption() {
        for (int i = 0; i < 10_000; i++) {
            String token = Secrets.newToken();
            assertFalse(token.startsWith("-"), token);
            assertEquals(22, token.length(), token);
        }
    }
}
