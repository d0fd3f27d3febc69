package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A transaction's duration, from its {@code start_timestamp} to its {@code timestamp}, as SDKs write them. */
class TransactionDurationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Double duration(String start, String end) {
        try {
            JsonNode event = JSON.readTree("{\"start_timestamp\": " + start + ", \"timestamp\": " + end + "}");
            return SentryFields.durationMs(event);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static String quoted(String text) {
        return '"' + text + '"';
    }

    /** What java.time reads of RFC 3339 text (a time without an offset is UTC), in epoch seconds. */
    private static double javaTimeSeconds(String text) {
        Instant instant;
        try {
            instant = OffsetDateTime.parse(text).toInstant();
        } catch (RuntimeException noOffset) {
            instant = LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
        }
        return instant.getEpochSecond() + instant.getNano() / 1e9;
    }

    @Test
    void aDurationBetweenRfc3339TimesIsWhatJavaTimeReadsToTheMicrosecond() {
        Random random = new Random(40);
        String[] offsets = {"Z", "z", "+00:00", "+02:00", "-05:30", "+14:00", ""};
        for (int i = 0; i < 20_000; i++) {
            long startSecond = 1_700_000_000L + random.nextInt(100_000_000);
            int startNanos = random.nextInt(1_000_000_000);
            long lengthNanos = (long) random.nextInt(3_600_000) * 1_000_000 + random.nextInt(1_000_000);
            ZoneOffset zone = ZoneOffset.ofTotalSeconds((random.nextInt(37) - 18) * 1800);
            String offset = offsets[random.nextInt(offsets.length)];
            ZoneOffset written = offset.isEmpty() || offset.equalsIgnoreCase("z") ? ZoneOffset.UTC : ZoneOffset.of(offset);
            int digits = random.nextInt(10); // 0 (no fraction) to 9
            String start = text(Instant.ofEpochSecond(startSecond, startNanos), written, digits, offset);
            String end = text(Instant.ofEpochSecond(startSecond, startNanos).plusNanos(lengthNanos), zone.equals(written) ? zone : written,
                    digits, offset);
            double expected = Math.round((javaTimeSeconds(end) - javaTimeSeconds(start)) * 1000.0 * 1000.0) / 1000.0;
            assertEquals(expected, duration(quoted(start), quoted(end)), start + " to " + end);
        }
    }

    private static String text(Instant instant, ZoneOffset offset, int fractionDigits, String written) {
        String local = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").format(instant.atOffset(offset));
        String nanos = String.format("%09d", instant.getNano());
        return local + (fractionDigits == 0 ? "" : "." + nanos.substring(0, fractionDigits)) + written;
    }

    @Test
    void aDurationBetweenTimesWithBasicOffsetsIsRead() {
        assertEquals(1500.0, duration(quoted("2026-11-22T10:00:00+0100"), quoted("2026-11-22T09:00:01.5Z")));
        assertEquals(250.0, duration(quoted("2026-11-22T10:00:00.000+01"), quoted("2026-11-22T10:00:00.250+01")));
    }

    @Test
    void aDurationBetweenEpochSecondsAndTextIsRead() {
        assertEquals(125.5, duration("1795341600.0", quoted("2026-11-22T10:00:00.1255Z")));
    }

    @Test
    void aTimeThatCannotBeReadGivesNoDuration() {
        assertNull(duration(quoted("2026-02-30T00:00:00Z"), quoted("2026-03-01T00:00:00Z")));
        assertNull(duration(quoted("yesterday"), quoted("2026-03-01T00:00:00Z")));
        assertNull(duration(quoted("2026-11-22T06:00:00.1234567890Z"), quoted("2026-11-22T06:00:01Z")));
    }

    @Test
    void anEndBeforeItsStartGivesNoDuration() {
        assertNull(duration(quoted("2026-11-22T06:00:01Z"), quoted("2026-11-22T06:00:00Z")));
    }
}
