package io.sluice.gateway.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamWriteFeature;

import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/** An event validated from the tree written with it is refused wherever the parser would refuse its bytes. */
class WrittenEventLimitsTest {
    /** As the OTLP mappers write: pairs of surrogates escaped, not combined. */
    private static final JsonFactory JSON = JsonFactory.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();
    private static final EventValidator VALIDATOR = new EventValidator(Duration.ofHours(24));

    private static WrittenEvent withName(String name) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EventWriter json = new EventWriter(JSON.createGenerator(out), out);
        json.writeStartObject();
        json.writeStringField("event_id", "0123456789abcdef0123456789abcdef");
        json.writeStringField(name, "v");
        json.writeEndObject();
        json.close();
        return json.written();
    }

    @Test
    void aNameWithinHalfTheParsersLimitsIsReadFromTheTreeWrittenWithIt() throws IOException {
        WrittenEvent event = withName("user.name");
        assertSame(event.tree(), VALIDATOR.parse(event));
    }

    /** The parser counts a name's length in UTF-8 bytes (50,000): 17,000 CJK characters are 51,000. */
    @Test
    void aNameLongerInUtf8BytesThanTheParserTakesIsRefusedAsTheParserRefusesIt() throws IOException {
        Rejection refused = assertThrows(Rejection.class, () -> VALIDATOR.parse(withName("中".repeat(17_000))));
        assertEquals(Outcome.INVALID_JSON, refused.outcome());
        assertEquals("the body is not valid JSON: Name length (51000) exceeds the maximum allowed (50000, from "
                + "`StreamReadConstraints.getMaxNameLength()`)", refused.getMessage());
    }

    /** Written as two escaped surrogates, which the parser refuses in a name (not in a string value). */
    @Test
    void aNameWithACharacterBeyondTheBasicPlaneIsRefusedAsTheParserRefusesIt() throws IOException {
        Rejection refused = assertThrows(Rejection.class, () -> VALIDATOR.parse(withName("user.\uD83D\uDE00")));
        assertEquals(Outcome.INVALID_JSON, refused.outcome());
    }
}
