package io.sluice.processor.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ColumnsTest {
    @Test
    void loneSurrogatesOfEitherKindBecomeReplacementCharacters() {
        assertEquals("a\uFFFDb\uFFFD\uFFFDc", Columns.fit("a\uDC00b\uDC00\uD800c", 100));
        assertEquals("\uFFFD", Columns.fit("\uD800", 100));
    }

    @Test
    void validStringsComeBackUnchangedNulAndNoncharacterIncluded() {
        String valid = "GET /\u0000\uFFFF\uD83D\uDE00";
        assertEquals(valid, Columns.fit(valid, 100));
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        assertEquals("ab", Columns.fit("ab\uD83D\uDE00", 3));
        assertEquals("ab\uD83D\uDE00", Columns.fit("ab\uD83D\uDE00c", 4));
    }

    @Test
    void aPayloadLargerThanItsLimitIsReplacedByValidJsonSayingSo() {
        byte[] big = new byte[Columns.PAYLOAD_BYTES + 1];
        assertEquals("{\"sluice_payload_omitted\":{\"bytes\":262145,\"limit\":262144}}", Columns.payload(big));
        assertEquals("{}", Columns.payload("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
