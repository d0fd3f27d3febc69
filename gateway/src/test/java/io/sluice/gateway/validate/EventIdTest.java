package io.sluice.gateway.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
