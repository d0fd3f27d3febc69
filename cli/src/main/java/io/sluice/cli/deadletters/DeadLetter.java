package io.sluice.cli.deadletters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.sluice.events.EventHeaders;
import io.sluice.sink.DeadLetters;

/**
 * One record of the dead-letter topic as the tools read it. The processor's dead letters carry the
 * raw record's headers (project, event id); the sink's carry a row, whose project is in its JSON.
 *
 * @param project     the project token: header {@code sluice.project}, else the row's {@code project}; null if neither
 * @param source      where the original was; null for a dead letter that does not say
 * @param valueOmitted why the value is left out (too large), else null
 */
record DeadLetter(int partition, long offset, Instant time, String reason, Source source, String project, String eventId,
                  RecordHeaders originalHeaders, byte[] key, byte[] value, String valueOmitted, RecordHeaders headers) {
    private static final JsonFactory JSON = new JsonFactory();

    /** {@code topic/partition@offset}, as the header {@link DeadLetters#SOURCE} has it. */
    record Source(String topic, int partition, long offset) {
        private static final Pattern FORM = Pattern.compile("(.+)/(\\d+)@(\\d+)");

        static Source parse(String text) {
            Matcher matcher = text == null ? null : FORM.matcher(text);
            if (matcher == null || !matcher.matches()) {
                return null;
            }
            return new Source(matcher.group(1), Integer.parseInt(matcher.group(2)), Long.parseLong(matcher.group(3)));
        }

        @Override
        public String toString() {
            return topic + "/" + partition + "@" + offset;
        }
    }

    static DeadLetter of(ConsumerRecord<byte[], byte[]> record) {
        RecordHeaders original = new RecordHeaders();
        for (Header header : record.headers()) {
            if (!header.key().startsWith(DeadLetters.HEADER_PREFIX)) {
                original.add(header);
            }
        }
        String project = EventHeaders.get(record.headers(), EventHeaders.PROJECT);
        if (project == null) {
            project = textField(record.value(), "project");
        }
        String eventId = EventHeaders.get(record.headers(), EventHeaders.EVENT_ID);
        if (eventId == null) {
            eventId = textField(record.value(), "event_id");
        }
        String reason = EventHeaders.get(record.headers(), DeadLetters.REASON);
        return new DeadLetter(record.partition(), record.offset(), Instant.ofEpochMilli(record.timestamp()),
                reason == null ? "(no reason given)" : reason, Source.parse(EventHeaders.get(record.headers(), DeadLetters.SOURCE)),
                project, eventId, original, record.key(), record.value(), EventHeaders.get(record.headers(), DeadLetters.VALUE_OMITTED),
                new RecordHeaders(record.headers().toArray()));
    }

    /** The same, without key, value and headers: what is kept of it while others are read. */
    DeadLetter withoutPayload() {
        return new DeadLetter(partition, offset, time, reason, source, project, eventId, new RecordHeaders(), null, null,
                valueOmitted, new RecordHeaders());
    }

    /** {@code partition@offset}: what {@code dead-letters show} takes. */
    String address() {
        return partition + "@" + offset;
    }

    /** The reason's first line, cut short: dead letters with the same cause group under it. */
    String reasonKind() {
        String line = reason.lines().findFirst().orElse("").strip();
        return SafeText.of(line.length() > 100 ? line.substring(0, 100) + "…" : line, 101);
    }

    /** A top-level text field of a JSON object (a sink row), read without building a tree; null if none. */
    private static String textField(byte[] json, String name) {
        if (json == null) {
            return null;
        }
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals(name) && value == JsonToken.VALUE_STRING) {
                    return parser.getText();
                }
                parser.skipChildren();
            }
        } catch (IOException e) {
            return null; // not JSON: the processor's dead letter of an unparsable record
        }
        return null;
    }

    static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
