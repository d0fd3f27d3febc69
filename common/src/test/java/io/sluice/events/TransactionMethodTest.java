package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The method is a grouping key of the per-route aggregates: HTTP's methods by name, anything else one value. */
class TransactionMethodTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String methodOf(String json) throws Exception {
        return TransactionFields.of(JSON.readTree(json)).method();
    }

    @Test
    void anHttpMethodIsKeptUpperCased() throws Exception {
        assertEquals("PATCH", methodOf("{\"transaction\": \"x\", \"request\": {\"method\": \"patch\"}}"));
    }

    @Test
    void anInventedMethodIsOther() throws Exception {
        assertEquals(TransactionFields.OTHER_METHOD, methodOf("{\"transaction\": \"x\", \"request\": {\"method\": \"FROB-1234\"}}"));
        assertEquals("OTHER /a", TransactionFields.of(JSON.readTree(
                "{\"transaction\": \"x\", \"request\": {\"method\": \"FROB\", \"url\": \"/a\"}}")).route());
    }

    @Test
    void noMethodStaysEmpty() throws Exception {
        assertEquals("", methodOf("{\"transaction\": \"checkout\"}"));
    }
}
