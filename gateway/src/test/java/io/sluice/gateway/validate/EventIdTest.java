package io.sluice.gateway.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Locale;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

class EventIdTest {
    @Test
    void hexAndUuidFormsInAnyCaseAreTheSameId() {
        EventId id = new EventId("0123456789abcdef0123456789abcdef");
        assertEquals(id, EventId.parse("0123456789ABCDEF0123456789abcdef"));
        assertEquals(id, EventId.parse(" 01234567-89ab-cdef-0123-456789abcdef "));
    }

    @Test
    void whatIsNeitherFormIsNoId() {
        for (String text : new String[] {null, "", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdeg",
                "0123456789-abcdef0123456789abcdef", "01234567-89ab-cdef-0123-456789abcdef0"}) {
            assertNull(EventId.parse(text), String.valueOf(text));
        }
    }

    @Test
    void anIdIsThirtyTwoLowerCaseHexDigits() {
        assertThrows(IllegalArgumentException.class, () -> new EventId("0123456789ABCDEF0123456789ABCDEF"));
    }

    @Test
    void aRandomIdIsAVersion4UuidAndNewEachTime() {
        EventId id = EventId.random();
        assertEquals('4', id.hex().charAt(12));
        assertEquals(true, "89ab".indexOf(id.hex().charAt(16)) >= 0);
        assertNotEquals(id, EventId.random());
    }

    /** The forms as regular expressions say them: what the id's reading by hand must agree with. */
    private static final Pattern AS_SENT = Pattern.compile("[0-9a-fA-F]{32}|[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}");

    @Test
    void anyTextIsReadAsTheRegularExpressionsOfBothFormsRead() {
        Random random = new Random(11);
        String alphabet = "0123456789abcdefABCDEF-g G\u0660\uff10";
        for (int i = 0; i < 200_000; i++) {
            StringBuilder text = new StringBuilder();
            if (random.nextBoolean()) { // near a real id: a UUID or 32 digits with a few characters changed
                text.append(random.nextBoolean() ? "01234567-89ab-cdef-0123-456789ABCDEF" : "0123456789abcdef0123456789ABCDEF");
                for (int changes = random.nextInt(3); changes > 0; changes--) {
                    text.setCharAt(random.nextInt(text.length()), alphabet.charAt(random.nextInt(alphabet.length())));
                }
            } else {
                for (int length = 30 + random.nextInt(9); length > 0; length--) {
                    text.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            String stripped = text.toString().strip();
            EventId expected = AS_SENT.matcher(stripped).matches()
                    ? new EventId(stripped.replace("-", "").toLowerCase(Locale.ROOT)) : null;
            assertEquals(expected, EventId.parse(text.toString()), text.toString());
        }
    }

    @Test
    void anIdOfAnyOtherCharactersIsRefused() {
        for (String hex : new String[] {"0123456789abcdef0123456789abcdeg", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0",
                "0123456789abcdef0123456789abcd\u0660f"}) {
            assertThrows(IllegalArgumentException.class, () -> new EventId(hex), hex);
        }
    }
}
