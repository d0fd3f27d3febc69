package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The gateway's reading of an event's fields reaches the processor exactly, or not at all. */
class FieldsHeaderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TransactionFields TRANSACTION = new TransactionFields("production", "GET /users/{id}", "GET",
            "https://shop.example/users/42", "/users/42", 200, "account-1", "sentry.python", "2.19.0", "CPython", "3.12.7",
            "Linux", "6.1.0", "GET /users/{id}", "http.server", 12.5, SampleRate.NONE, "shop@2.4.1");

    /** Room enough for the header: an event's JSON of this many bytes. */
    private static final int ROOM = 100_000;

    private static RecordHeaders withHeader(byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(FieldsHeader.NAME, value);
        return headers;
    }

    @Test
    void transactionFieldsComeBackAsTheyWereRead() {
        assertEquals(TRANSACTION, TransactionFields.fromHeader(withHeader(TRANSACTION.toHeader(ROOM))));
    }

    @Test
    void loneSurrogatesEmptyStringsAndNoStatusComeBackExactly() {
        TransactionFields odd = new TransactionFields("\ud800", "", "\udfff x", "\u0000", "", null, "😀", "", "", "", "", "", "", "", "", null, SampleRate.NONE, "\udbff");
        assertEquals(odd, TransactionFields.fromHeader(withHeader(odd.toHeader(ROOM))));
    }

    @Test
    void errorFieldsComeBackAsTheyWereRead() throws Exception {
        ErrorFields fields = ErrorFields.of(JSON.readTree("{\"level\": \"Warning\", \"exception\": {\"values\": [{\"type\": \"KeyError\","
                + " \"value\": \"'id'\", \"stacktrace\": {\"frames\": [{\"function\": \"load\", \"filename\": \"app.py\", \"lineno\": 3}]}}]}}"));
        assertEquals(fields, ErrorFields.fromHeader(withHeader(fields.toHeader(ROOM))));
    }

    @Test
    void fieldsLargerThanTheHeaderCarriesGoWithout() {
        TransactionFields large = new TransactionFields("", "x".repeat(FieldsHeader.MAX_BYTES), "", "", "", null, "", "", "", "", "", "", "", "", "", null, SampleRate.NONE, "");
        assertNull(large.toHeader(ROOM));
    }

    @Test
    void fieldsThatMayTakeMoreThanTheEventsJsonGoWithout() {
        TransactionFields fields = new TransactionFields("", "GET /" + "a".repeat(300), "", "", "/" + "a".repeat(300), null, "", "", "", "", "", "", "", "", "", null, SampleRate.NONE, "");
        assertNull(fields.toHeader(400), "the name and the path hold the same characters twice");
        assertEquals(fields, TransactionFields.fromHeader(withHeader(fields.toHeader(4_000))));
    }

    @Test
    void aStatusNoGatewayWritesIsNotRead() {
        for (String status : new String[] {"99", "600", "70000", "-1"}) {
            byte[] value = FieldsHeader.encode(ROOM, FieldsHeader.TRANSACTION, "", "", "", "", "", status, "", "", "", "", "", "", "");
            assertNull(TransactionFields.fromHeader(withHeader(value)), status);
        }
    }

    @Test
    void aRecordWithoutTheHeaderHasNoFields() {
        assertNull(TransactionFields.fromHeader(new RecordHeaders()));
    }

    @Test
    void aHeaderOfAnotherVersionIsNotRead() {
        byte[] value = TRANSACTION.toHeader(ROOM);
        value[0] = (byte) (FieldsHeader.VERSION + 1);
        assertNull(TransactionFields.fromHeader(withHeader(value)));
    }

    @Test
    void aHeaderOfTheOtherKindIsNotRead() {
        assertNull(ErrorFields.fromHeader(withHeader(TRANSACTION.toHeader(ROOM))));
    }

    @Test
    void aCutOrLengthenedHeaderIsNotRead() {
        byte[] value = TRANSACTION.toHeader(ROOM);
        for (int length = 0; length < value.length; length++) {
            assertNull(TransactionFields.fromHeader(withHeader(Arrays.copyOf(value, length))), "cut at " + length);
        }
        assertNull(TransactionFields.fromHeader(withHeader(Arrays.copyOf(value, value.length + 1))));
    }

    @Test
    void aStatusThatIsNoNumberIsNotRead() {
        byte[] value = FieldsHeader.encode(ROOM, FieldsHeader.TRANSACTION, "", "", "", "", "", "two hundred", "", "", "", "", "", "", "");
        assertNull(TransactionFields.fromHeader(withHeader(value)));
    }

    /** The header as DataOutputStream writes it: a version, a kind, each value's presence and modified UTF-8. */
    private static byte[] writtenByDataOutput(byte kind, String... values) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FieldsHeader.VERSION);
            out.writeByte(kind);
            for (String value : values) {
                out.writeBoolean(value != null);
                if (value != null) {
                    out.writeUTF(value);
                }
            }
        }
        return bytes.toByteArray();
    }

    /** The values as DataInputStream reads them; null where it fails or bytes are left over. */
    private static String[] readByDataInput(byte[] value, int count) {
        String[] fields = new String[count];
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value, 2, value.length - 2))) {
            for (int i = 0; i < count; i++) {
                fields[i] = in.readBoolean() ? in.readUTF() : null;
            }
            return in.available() == 0 ? fields : null;
        } catch (IOException malformed) {
            return null;
        }
    }

    private static String randomText(Random random) {
        char[] kinds = {'a', '\u0000', '\u00e9', '\u07ff', '\u0800', '\ud800', '\udfff', '\uffff', '\u20ac', '\u007f', '\u0080'};
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            text.append(random.nextBoolean() ? kinds[random.nextInt(kinds.length)] : (char) random.nextInt(0x10000));
        }
        return random.nextInt(8) == 0 ? null : text.toString();
    }

    @Test
    void theHeaderIsWrittenByteForByteAsDataOutputStreamWritesIt() throws IOException {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            String[] values = new String[1 + random.nextInt(5)];
            Arrays.setAll(values, v -> randomText(random));
            assertArrayEquals(writtenByDataOutput(FieldsHeader.ERROR, values), FieldsHeader.encode(ROOM, FieldsHeader.ERROR, values),
                    Arrays.toString(values));
        }
    }

    @Test
    void anyHeaderIsReadAsDataInputStreamReadsIt() throws IOException {
        Random random = new Random(7);
        for (int i = 0; i < 50_000; i++) {
            String[] values = new String[1 + random.nextInt(4)];
            Arrays.setAll(values, v -> randomText(random));
            byte[] value = writtenByDataOutput(FieldsHeader.ERROR, values);
            for (int flips = random.nextInt(3); flips > 0; flips--) { // malformed ones too: bytes changed, cut or added
                int at = 2 + random.nextInt(value.length - 1);
                if (random.nextBoolean() && at < value.length) {
                    value[at] = (byte) random.nextInt(256);
                } else {
                    value = Arrays.copyOf(value, random.nextBoolean() ? at : value.length + 1);
                }
            }
            assertArrayEquals(readByDataInput(value, values.length),
                    FieldsHeader.decode(withHeader(value), FieldsHeader.ERROR, values.length), Arrays.toString(value));
        }
    }
}
