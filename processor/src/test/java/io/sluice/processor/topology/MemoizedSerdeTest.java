package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

import io.sluice.processor.rows.ErrorKey;
import io.sluice.processor.rows.TrafficKey;

class MemoizedSerdeTest {
    private static final Serde<TrafficKey> JSON = JsonSerde.of(TrafficKey.class);

    @Test
    void aGroupingKeyIsTheJsonItAlwaysWas() {
        // Repartition partitions and stored counts depend on these bytes: pinned.
        assertEquals("{\"project\":\"shop\",\"environment\":\"production\"}", new String(
                MemoizedSerde.of(JSON).serializer().serialize("t", new TrafficKey("shop", "production")), StandardCharsets.UTF_8));
        assertEquals("{\"project\":\"shop\",\"environment\":\"production\",\"exception_type\":\"ValueError\"}", new String(
                MemoizedSerde.of(JsonSerde.of(ErrorKey.class)).serializer().serialize("t",
                        new ErrorKey("shop", "production", "ValueError")), StandardCharsets.UTF_8));
    }

    @Test
    void remembersBytesIdenticalToJacksonsForAnyStringsAndAfterForgetting() {
        Serde<TrafficKey> memoized = MemoizedSerde.of(JSON);
        Random random = new Random(18);
        List<TrafficKey> keys = new ArrayList<>();
        for (int i = 0; i < MemoizedSerde.MAX_ENTRIES * 2 + 500; i++) {
            keys.add(new TrafficKey(hostile(random), hostile(random)));
        }
        for (int pass = 0; pass < 2; pass++) { // the second pass finds most keys remembered, some forgotten
            for (TrafficKey key : keys) {
                byte[] expected = JSON.serializer().serialize("t", key);
                byte[] bytes = memoized.serializer().serialize("t", key);
                assertArrayEquals(expected, bytes, key.toString());
                assertEquals(JSON.deserializer().deserialize("t", expected), memoized.deserializer().deserialize("t", expected));
                assertEquals(memoized.deserializer().deserialize("t", expected.clone()),
                        memoized.deserializer().deserialize("t", expected));
            }
        }
    }

    @Test
    void aLongKeyIsWrittenAndReadAsJacksonDoesWithoutBeingRemembered() {
        Serde<ErrorKey> errorJson = JsonSerde.of(ErrorKey.class);
        Serde<ErrorKey> memoized = MemoizedSerde.of(errorJson);
        ErrorKey key = new ErrorKey("shop", "production", "\0".repeat(1024));
        byte[] expected = errorJson.serializer().serialize("t", key);
        assertEquals(true, expected.length > MemoizedSerde.MAX_KEY_BYTES);
        for (int i = 0; i < 2; i++) {
            assertArrayEquals(expected, memoized.serializer().serialize("t", key));
            assertEquals(key, memoized.deserializer().deserialize("t", expected));
        }
    }

    @Test
    void aReusedInputArrayDoesNotChangeWhatIsRemembered() {
        Serde<TrafficKey> memoized = MemoizedSerde.of(JSON);
        byte[] shop = JSON.serializer().serialize("t", new TrafficKey("shop", "a"));
        byte[] reused = shop.clone();
        assertEquals(new TrafficKey("shop", "a"), memoized.deserializer().deserialize("t", reused));
        reused[reused.length - 3] = 'b';
        assertEquals(new TrafficKey("shop", "b"), memoized.deserializer().deserialize("t", reused));
        assertEquals(new TrafficKey("shop", "a"), memoized.deserializer().deserialize("t", shop));
    }

    /** Short strings of quotes, backslashes, control characters, non-ASCII, emoji and lone surrogates. */
    private static String hostile(Random random) {
        char[] alphabet = {'a', 'Z', '0', '"', '\\', '/', '\n', '\t', '\u0000', '\u001f', '\u007f', 'é', '\u2028', '中',
                '\uD800', '\uDC00', '\uFFFD', '<', '&'};
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(12);
        for (int i = 0; i < length; i++) {
            if (random.nextInt(10) == 0) {
                text.append("\uD83D\uDE00"); // a pair
            } else {
                text.append(alphabet[random.nextInt(alphabet.length)]);
            }
        }
        return text.toString();
    }
}
