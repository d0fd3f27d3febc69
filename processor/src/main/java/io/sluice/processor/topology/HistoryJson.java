package io.sluice.processor.topology;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;

import org.apache.kafka.common.serialization.Serde;

import io.sluice.processor.rows.TransactionFact;

/**
 * The request history's rows, written field by field on Jackson's generator: byte for byte what
 * {@link JsonSerde#of(Class)} writes for a {@link TransactionFact} (the same generator encodes
 * every string and number; HistoryJsonTest holds the names and their order to it), without its
 * reflection over the record's 25 accessors for every transaction.
 */
final class HistoryJson {
    static final Serde<TransactionFact> SERDE = JsonSerde.of(TransactionFact.class, HistoryJson::write);

    private static final JsonFactory FACTORY = JsonSerde.MAPPER.getFactory();
    private static final SerializableString EVENT_ID = new SerializedString("event_id");
    private static final SerializableString PROJECT = new SerializedString("project");
    private static final SerializableString TIMESTAMP = new SerializedString("timestamp");
    private static final SerializableString RECEIVED_AT = new SerializedString("received_at");
    private static final SerializableString TIME_ADJUSTED = new SerializedString("time_adjusted");
    private static final SerializableString ENVIRONMENT = new SerializedString("environment");
    private static final SerializableString TRANSACTION = new SerializedString("transaction");
    private static final SerializableString METHOD = new SerializedString("method");
    private static final SerializableString URL = new SerializedString("url");
    private static final SerializableString PATH = new SerializedString("path");
    private static final SerializableString STATUS_CODE = new SerializedString("status_code");
    private static final SerializableString USER_ID = new SerializedString("user_id");
    private static final SerializableString SDK_NAME = new SerializedString("sdk_name");
    private static final SerializableString SDK_VERSION = new SerializedString("sdk_version");
    private static final SerializableString RUNTIME_NAME = new SerializedString("runtime_name");
    private static final SerializableString RUNTIME_VERSION = new SerializedString("runtime_version");
    private static final SerializableString OS_NAME = new SerializedString("os_name");
    private static final SerializableString OS_VERSION = new SerializedString("os_version");
    private static final SerializableString KAFKA_PARTITION = new SerializedString("kafka_partition");
    private static final SerializableString KAFKA_OFFSET = new SerializedString("kafka_offset");
    private static final SerializableString ROUTE = new SerializedString("route");
    private static final SerializableString OP = new SerializedString("op");
    private static final SerializableString DURATION_MS = new SerializedString("duration_ms");
    private static final SerializableString SAMPLE_RATE = new SerializedString("sample_rate");
    private static final SerializableString RELEASE = new SerializedString("release");

    private HistoryJson() {
    }

    static byte[] write(TransactionFact fact) throws IOException {
        try (ByteArrayBuilder bytes = new ByteArrayBuilder(1024)) {
            try (JsonGenerator json = FACTORY.createGenerator(bytes, JsonEncoding.UTF8)) {
                json.writeStartObject();
                string(json, EVENT_ID, fact.eventId());
                string(json, PROJECT, fact.project());
                number(json, TIMESTAMP, fact.timestamp());
                number(json, RECEIVED_AT, fact.receivedAt());
                json.writeFieldName(TIME_ADJUSTED);
                json.writeBoolean(fact.timeAdjusted());
                string(json, ENVIRONMENT, fact.environment());
                string(json, TRANSACTION, fact.transaction());
                string(json, METHOD, fact.method());
                string(json, URL, fact.url());
                string(json, PATH, fact.path());
                json.writeFieldName(STATUS_CODE);
                if (fact.statusCode() == null) {
                    json.writeNull();
                } else {
                    json.writeNumber(fact.statusCode().intValue());
                }
                string(json, USER_ID, fact.userId());
                string(json, SDK_NAME, fact.sdkName());
                string(json, SDK_VERSION, fact.sdkVersion());
                string(json, RUNTIME_NAME, fact.runtimeName());
                string(json, RUNTIME_VERSION, fact.runtimeVersion());
                string(json, OS_NAME, fact.osName());
                string(json, OS_VERSION, fact.osVersion());
                json.writeFieldName(KAFKA_PARTITION);
                json.writeNumber(fact.kafkaPartition());
                number(json, KAFKA_OFFSET, fact.kafkaOffset());
                string(json, ROUTE, fact.route());
                string(json, OP, fact.op());
                json.writeFieldName(DURATION_MS);
                if (fact.durationMs() == null) {
                    json.writeNull();
                } else {
                    json.writeNumber(fact.durationMs());
                }
                json.writeFieldName(SAMPLE_RATE);
                json.writeNumber(fact.sampleRate());
                string(json, RELEASE, fact.release());
                json.writeEndObject();
            }
            return bytes.toByteArray();
        }
    }

    private static void number(JsonGenerator json, SerializableString name, long value) throws IOException {
        json.writeFieldName(name);
        json.writeNumber(value);
    }

    /** A string field (the generator writes a null one as null, as for a record's null component). */
    private static void string(JsonGenerator json, SerializableString name, String value) throws IOException {
        json.writeFieldName(name);
        json.writeString(value);
    }
}
