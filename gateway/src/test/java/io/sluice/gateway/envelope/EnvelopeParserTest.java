package io.sluice.gateway.envelope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

class EnvelopeParserTest {
    private final EnvelopeParser parser = new EnvelopeParser(1000, 1024);

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> payloads(Envelope envelope) {
        return envelope.items().stream().map(item -> new String(item.payload(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void itemsWithAndWithoutLengthAreReadInOrder() {
        Envelope envelope = parser.parse(bytes("{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dc\"}\n"
                + "{\"type\":\"attachment\",\"length\":10}\nhelloworld\n"
                + "{\"type\":\"event\"}\n{\"message\":\"hi\"}\n"));
        assertEquals("9ec79c33ec9942ab8353589fcb2e04dc", envelope.headerText("event_id"));
        assertEquals(List.of("attachment", "event"), envelope.items().stream().map(Envelope.Item::type).toList());
        assertEquals(List.of("helloworld", "{\"message\":\"hi\"}"), payloads(envelope));
    }

    @Test
    void aLengthCountsNewlinesInsideThePayload() {
        Envelope envelope = parser.parse(bytes("{}\n{\"type\":\"attachment\",\"length\":3}\na\nb\n{\"type\":\"log\"}\n{}"));
        assertEquals(List.of("a\nb", "{}"), payloads(envelope));
    }

    @Test
    void aMissingFinalNewlineIsFine() {
        assertEquals(List.of("{\"a\":1}"), payloads(parser.parse(bytes("{}\n{\"type\":\"event\"}\n{\"a\":1}"))));
        assertEquals(List.of("xyz"), payloads(parser.parse(bytes("{}\n{\"type\":\"attachment\",\"length\":3}\nxyz"))));
    }

    @Test
    void anItemHeaderAtTheVeryEndHasAnEmptyPayload() {
        assertEquals(List.of(""), payloads(parser.parse(bytes("{}\n{\"type\":\"session\"}"))));
    }

    @Test
    void aHeaderOnlyEnvelopeHasNoItems() {
        assertEquals(0, parser.parse(bytes("{\"event_id\":null}\n")).items().size());
    }

    @Test
    void aLengthLongerThanWhatFollowsIsRefused() {
        Rejection refused = assertThrows(Rejection.class,
                () -> parser.parse(bytes("{}\n{\"type\":\"attachment\",\"length\":100}\nshort\n")));
        assertEquals(Outcome.INVALID_ENVELOPE, refused.outcome());
        assertEquals("not a valid Sentry envelope: item 1 declares a length of 100 bytes; only 6 follow", refused.getMessage());
    }

    @Test
    void aLengthShorterThanThePayloadIsRefused() {
        Rejection refused = assertThrows(Rejection.class,
                () -> parser.parse(bytes("{}\n{\"type\":\"attachment\",\"length\":2}\nlonger\n")));
        assertEquals("not a valid Sentry envelope: item 1 is not followed by a newline after its declared length of 2 bytes",
                refused.getMessage());
    }

    @Test
    void anItemHeaderThatIsNotJsonIsRefused() {
        Rejection refused = assertThrows(Rejection.class, () -> parser.parse(bytes("{}\n{\"type\":\"event\"}\n{}\nnot json\n")));
        assertEquals("not a valid Sentry envelope: the header of item 2 is not JSON", refused.getMessage());
    }

    @Test
    void anItemWithoutTypeIsRefused() {
        Rejection refused = assertThrows(Rejection.class, () -> parser.parse(bytes("{}\n{\"length\":0}\n\n")));
        assertEquals("not a valid Sentry envelope: the header of item 1 has no 'type'", refused.getMessage());
    }

    @Test
    void aHeaderThatIsNotAnObjectIsRefused() {
        assertEquals("not a valid Sentry envelope: the envelope header (its first line) is not a JSON object",
                assertThrows(Rejection.class, () -> parser.parse(bytes("[1]\n"))).getMessage());
        assertEquals(Outcome.INVALID_ENVELOPE, assertThrows(Rejection.class, () -> parser.parse(new byte[0])).outcome());
    }

    @Test
    void moreItemsThanTheLimitAreRefused() {
        StringBuilder envelope = new StringBuilder("{}\n");
        for (int i = 0; i < 1001; i++) {
            envelope.append("{\"type\":\"log\"}\n{}\n");
        }
        assertEquals("not a valid Sentry envelope: the envelope has more than 1000 items",
                assertThrows(Rejection.class, () -> parser.parse(bytes(envelope.toString()))).getMessage());
    }

    @Test
    void anEventLargerThanTheEventLimitIsTooLargeButAnAttachmentIsNot() {
        String big = "x".repeat(1025);
        Rejection refused = assertThrows(Rejection.class,
                () -> parser.parse(bytes("{}\n{\"type\":\"event\",\"length\":1025}\n" + big + "\n")));
        assertEquals(Outcome.BODY_TOO_LARGE, refused.outcome());
        assertEquals("item 1 (event) is larger than 1024 bytes", refused.getMessage());
        assertEquals(1025, parser.parse(bytes("{}\n{\"type\":\"attachment\",\"length\":1025}\n" + big + "\n")).items().get(0).length());
    }

    @Test
    void aNegativeOrFractionalLengthIsRefused() {
        assertEquals(Outcome.INVALID_ENVELOPE, assertThrows(Rejection.class,
                () -> parser.parse(bytes("{}\n{\"type\":\"log\",\"length\":-1}\n\n"))).outcome());
        assertEquals(Outcome.INVALID_ENVELOPE, assertThrows(Rejection.class,
                () -> parser.parse(bytes("{}\n{\"type\":\"log\",\"length\":1.5}\nx\n"))).outcome());
    }

    @Test
    void aLengthBeyondAnIntIsRefusedNotWrapped() {
        assertEquals(Outcome.INVALID_ENVELOPE, assertThrows(Rejection.class,
                () -> parser.parse(bytes("{}\n{\"type\":\"log\",\"length\":18446744073709551621}\nxxxxx\n"))).outcome());
        assertEquals(Outcome.INVALID_ENVELOPE, assertThrows(Rejection.class,
                () -> parser.parse(bytes("{}\n{\"type\":\"log\",\"length\":4294967301}\nxxxxx\n"))).outcome());
    }

    @Test
    void anItemHeaderOverFourKibibytesIsRefusedBeforeItIsParsed() {
        String header = "{\"type\":\"log\",\"x\":\"" + "a".repeat(4096) + "\"}";
        Rejection refused = assertThrows(Rejection.class, () -> parser.parse(bytes("{}\n" + header + "\n{}\n")));
        assertEquals("not a valid Sentry envelope: the header of item 1 is longer than 4096 bytes", refused.getMessage());
        String fits = "{\"type\":\"log\",\"x\":\"" + "a".repeat(4096 - 21) + "\"}";
        assertEquals(4096, fits.length());
        assertEquals(1, parser.parse(bytes("{}\n" + fits + "\n{}\n")).items().size());
    }

    @Test
    void anEnvelopeHeaderOverSixteenKibibytesIsRefused() {
        String header = "{\"x\":\"" + "a".repeat(16 * 1024) + "\"}";
        assertEquals(Outcome.INVALID_ENVELOPE, assertThrows(Rejection.class, () -> parser.parse(bytes(header + "\n"))).outcome());
    }
}
