package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

class IsoTimestampsTest {

    @Test
    void readsTheCommonShapes() {
        assertEquals(Instant.parse("2026-11-22T06:00:00Z").toEpochMilli(), IsoTimestamps.parseMillis("2026-11-22T06:00:00Z"));
        assertEquals(Instant.parse("2026-11-22T06:00:00.123Z").toEpochMilli(), IsoTimestamps.parseMillis("2026-11-22T06:00:00.123456789Z"));
        assertEquals(Instant.parse("2026-11-22T05:00:00.500Z").toEpochMilli(), IsoTimestamps.parseMillis("2026-11-22T06:00:00.5+01:00"));
        assertEquals(Instant.parse("2026-11-22T06:00:00Z").toEpochMilli(), IsoTimestamps.parseMillis("2026-11-22T06:00:00"));
    }

    @Test
    void leavesOtherShapesAndImpossibleTimesToJavaTime() {
        for (String text : List.of("2026-11-22T06:00Z", "2026-11-22 06:00:00Z", "2026-02-30T00:00:00Z", "2026-11-22T24:00:00Z",
                "2026-11-22T06:00:60Z", "2026-11-22T06:00:00.Z", "2026-11-22T06:00:00.1234567890Z", "2026-11-22T06:00:00+010",
                "2026-11-22T06:00:00+18:01", "2026-11-22T06:00:00+1801", "2026-11-22T06:00:00+19", "2026-11-22T06:00:00+0160", "2026-11-22T06:00:00+1", "2026-11-22T06:00:00+01:00:00", "2026-11-22T06:00:00UTC", "+2026-11-22T06:00:00Z",
                "2026-1a-22T06:00:00Z")) {
            assertFalse(IsoTimestamps.isOfThisShape(IsoTimestamps.parseMillis(text)), text);
        }
    }

    /** Issue #13 item 8: ISO 8601's basic offsets (+HHMM, +HH) were refused. */
    @Test
    void readsBasicOffsetsOnBothPaths() {
        long nineUtc = Instant.parse("2026-11-22T09:00:00Z").toEpochMilli();
        for (String text : List.of("2026-11-22T10:00:00+0100", "2026-11-22T10:00:00+01", "2026-11-22T10:00:00+01:00",
                "2026-11-22T08:30:00-0030", "2026-11-22T07:00:00-02")) {
            assertEquals(nineUtc, IsoTimestamps.parseMillis(text), "fast path: " + text);
            assertEquals(nineUtc, IsoTimestamps.parseMillisWithJavaTime(text), "general path: " + text);
        }
        assertEquals(nineUtc, IsoTimestamps.parseMillisWithJavaTime("2026-11-22T10:00+0100"), "general path, no seconds");
        assertEquals(nineUtc, IsoTimestamps.parseMillisWithJavaTime("2026-11-22T10:00+01"), "general path, no seconds");
    }

    /** Each edge case is read by the fast path, to the exact millisecond, and java.time agrees. */
    @Test
    void readsEdgeCasesExactlyOnBothPaths() {
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("0000-01-01T00:00:00Z", -62_167_219_200_000L);
        expected.put("1969-12-31T23:59:59.999Z", -1L);
        expected.put("2024-02-29T12:00:00z", Instant.parse("2024-02-29T12:00:00Z").toEpochMilli());
        expected.put("2026-11-22t06:00:00-18:00", Instant.parse("2026-11-23T00:00:00Z").toEpochMilli());
        expected.put("2026-11-22T06:00:00+18:00", Instant.parse("2026-11-21T12:00:00Z").toEpochMilli());
        expected.put("2026-11-22T06:00:00.000000001-00:00", Instant.parse("2026-11-22T06:00:00Z").toEpochMilli());
        expected.forEach((text, millis) -> {
            long fast = IsoTimestamps.parseMillis(text);
            assertTrue(IsoTimestamps.isOfThisShape(fast), "the fast path reads " + text);
            assertEquals(millis, fast, "fast path: " + text);
            assertEquals(millis, IsoTimestamps.parseMillisWithJavaTime(text), "general path: " + text);
        });
    }

    @Test
    void agreesWithJavaTimeOnManyRandomTimes() {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            Instant instant = Instant.ofEpochSecond(random.nextLong(-2_000_000_000L, 4_000_000_000L), random.nextInt(1_000_000_000));
            ZoneOffset offset = ZoneOffset.ofTotalSeconds(random.nextInt(-18 * 60, 18 * 60 + 1) * 60);
            String text = OffsetDateTime.ofInstant(instant, offset).toString();
            assertTrue(IsoTimestamps.isOfThisShape(IsoTimestamps.parseMillis(text)), "the fast path reads " + text);
            assertEquals(IsoTimestamps.parseMillisWithJavaTime(text), IsoTimestamps.parseMillis(text), text);
        }
    }
}
