package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

import io.sluice.processor.rows.TransactionFact;

/** The history row written field by field is, byte for byte, the row Jackson writes from the record. */
class HistoryJsonTest {
    private static final Serializer<TransactionFact> JACKSON = JsonSerde.of(TransactionFact.class).serializer();
    private static final String TOPIC = "sluice.history";

    @Test
    void theBenchTransactionIsWrittenAsJacksonWritesIt() {
        TransactionFact fact = new TransactionFact("0123456789abcdef0123456789abcdef", "bench", 1_795_000_000_000L,
                1_795_000_000_123L, false, "production", "GET /api/users/{id}", "GET", "https://shop.example/api/users/42",
                "/api/users/42", 200, "account-4242", "sentry.python.django", "2.19.0", "CPython", "3.12.7", "Linux", "6.1.0",
                2, 123_456L, "/api/users/{id}", "http.server", 125.0, 1.0, "shop@2.14.0");
        assertSame(fact);
    }

    @Test
    void aTransactionWithoutItsOptionalFieldsIsWrittenAsJacksonWritesIt() {
        assertSame(new TransactionFact("e", "p", 0, 0, true, null, null, null, null, null, null, null, null, null, null, null,
                null, null, 0, 0, null, null, null, 0.25, null));
    }

    @Test
    void stringsThatNeedEscapingAndNumbersAtTheEdgesAreWrittenAsJacksonWritesThem() {
        String hostile = "q\"b\\s/\u0000\u0001\u001f\b\t\n\f\r\u007f é 中 \uD83D\uDE00 \u2028\u2029 \uFFFF";
        assertSame(new TransactionFact(hostile, hostile, Long.MIN_VALUE, Long.MAX_VALUE, true, hostile, hostile, hostile, hostile,
                hostile, Integer.MIN_VALUE, hostile, hostile, hostile, hostile, hostile, hostile, hostile, Integer.MAX_VALUE, -1,
                hostile, hostile, Double.NaN, Double.MIN_VALUE, hostile));
        assertSame(new TransactionFact("e", "p", 1, 2, false, "", "", "", "", "", 599, "", "", "", "", "", "", "", 0, 0, "", "",
                Double.POSITIVE_INFINITY, 1e-7, ""));
        assertSame(new TransactionFact("e", "p", 1, 2, false, "", "", "", "", "", 100, "", "", "", "", "", "", "", 0, 0, "", "",
                -0.0, 123456789.123456789, ""));
    }

    @Test
    void randomTransactionsAreWrittenAsJacksonWritesThem() {
        Random random = new Random(40);
        for (int i = 0; i < 2_000; i++) {
            assertSame(new TransactionFact(text(random), text(random), random.nextLong(), random.nextLong(), random.nextBoolean(),
                    text(random), text(random), text(random), text(random), text(random), random.nextBoolean() ? null : random.nextInt(),
                    text(random), text(random), text(random), text(random), text(random), text(random), text(random),
                    random.nextInt(), random.nextLong(), text(random), text(random),
                    random.nextBoolean() ? null : random.nextDouble() * Math.pow(10, random.nextInt(40) - 20),
                    random.nextDouble(), text(random)));
        }
    }

    private static void assertSame(TransactionFact fact) {
        try {
            byte[] jackson = JACKSON.serialize(TOPIC, fact);
            byte[] written = HistoryJson.SERDE.serializer().serialize(TOPIC, fact);
            assertEquals(new String(jackson, StandardCharsets.UTF_8), new String(written, StandardCharsets.UTF_8));
            assertArrayEquals(jackson, written);
        } catch (RuntimeException e) {
            throw new AssertionError(fact.toString(), e);
        }
    }

    /** Null, or up to 40 characters from anywhere in the BMP (lone surrogates included: the fact makes them valid). */
    private static String text(Random random) {
        if (random.nextInt(8) == 0) {
            return null;
        }
        char[] chars = new char[random.nextInt(40)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) (random.nextBoolean() ? random.nextInt(0x80) : random.nextInt(0x10000));
        }
        return new String(chars);
    }
}
