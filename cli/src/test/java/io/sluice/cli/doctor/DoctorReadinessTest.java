package io.sluice.cli.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** What doctor reads from a ready /readyz answer: the reasons some requests fail although the server is ready. */
class DoctorReadinessTest {
    @Test
    void aReadyAnswerWithDegradedReasonsListsThem() {
        assertEquals(List.of("project 4211 refused: its registry record cannot be read"),
                Doctor.degraded("{\"status\":\"ready\",\"degraded\":[\"project 4211 refused: its registry record cannot be read\"]}"));
    }

    @Test
    void aPlainReadyAnswerHasNone() {
        assertEquals(List.of(), Doctor.degraded("{\"status\":\"ready\"}"));
        assertEquals(List.of(), Doctor.degraded("ready"));
    }

    @Test
    void aLongReasonIsCut() {
        assertEquals(201, Doctor.degraded("{\"degraded\":[\"" + "x".repeat(5000) + "\"]}").get(0).length());
    }
}
