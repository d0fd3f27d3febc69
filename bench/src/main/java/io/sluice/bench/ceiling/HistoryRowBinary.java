package io.sluice.bench.ceiling;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.sluice.processor.rows.TransactionFact;

/**
 * The other format at the sink: a history row's JSON (as the processor writes it) parsed with
 * Jackson's streaming parser and encoded as RowBinary in the transactions table's column order.
 * Only what the format comparison needs: the bench's rows, no hostile values.
 */
public final class HistoryRowBinary {
    private static final JsonFactory JSON = new JsonFactory();
    private static final List<String> COLUMNS = List.of("event_id", "project", "timestamp", "received_at", "time_adjusted",
            "environment", "transaction", "route", "op", "method", "url", "path", "status_code", "duration_ms", "user_id",
            "sdk_name", "sdk_version", "runtime_name", "runtime_version", "os_name", "os_version", "kafka_partition", "kafka_offset",
            "sample_rate", "retention_days", "release");

    private static final Map<String, Integer> INDEX = index();

    private final RowBinaryRows out = new RowBinaryRows();
    private final Object[] values = new Object[COLUMNS.size()];
    /** The retention_days of a row that has none: the column's default, SLUICE_CLICKHOUSE_RETENTION_DAYS. */
    private final long defaultRetentionDays;

    public HistoryRowBinary(long defaultRetentionDays) {
        this.defaultRetentionDays = defaultRetentionDays;
    }

    /** Appends one JSON row. */
    public void add(byte[] json) throws IOException {
        Arrays.fill(values, null);
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not an object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                Integer column = INDEX.get(parser.currentName());
                JsonToken token = parser.nextToken();
                if (column == null) {
                    parser.skipChildren();
                    continue;
                }
                values[column] = switch (token) {
                    case VALUE_STRING -> parser.getText();
                    case VALUE_NUMBER_INT -> parser.getLongValue();
                    case VALUE_NUMBER_FLOAT -> parser.getDoubleValue();
                    case VALUE_TRUE -> Boolean.TRUE;
                    case VALUE_FALSE -> Boolean.FALSE;
                    case VALUE_NULL -> null;
                    default -> throw new IOException("unexpected " + token);
                };
            }
        }
        out.string(text(0)).string(text(1)).dateTime64Millis(number(2)).dateTime64Millis(number(3))
                .bool(Boolean.TRUE.equals(values[4])).string(text(5)).string(text(6)).string(text(7)).string(text(8))
                .string(text(9)).string(text(10)).string(text(11)).nullableUInt16((Long) values[12]).nullableFloat64(decimal(13))
                .string(text(14)).string(text(15)).string(text(16)).string(text(17)).string(text(18)).string(text(19))
                .string(text(20)).uint32(number(21)).uint64(number(22)).float64(values[23] instanceof Number rate ? rate.doubleValue() : 1)
                .uint16(values[24] instanceof Number days ? days.longValue() : defaultRetentionDays).string(text(25));
    }

    /** The same row encoded straight from the fact: the RowBinary ceiling's input. */
    public static void add(RowBinaryRows out, TransactionFact f, long retentionDays) {
        out.string(f.eventId()).string(f.project()).dateTime64Millis(f.timestamp()).dateTime64Millis(f.receivedAt())
                .bool(f.timeAdjusted()).string(f.environment()).string(f.transaction()).string(f.route()).string(f.op())
                .string(f.method()).string(f.url()).string(f.path())
                .nullableUInt16(f.statusCode() == null ? null : f.statusCode().longValue()).nullableFloat64(f.durationMs())
                .string(f.userId())
                .string(f.sdkName()).string(f.sdkVersion()).string(f.runtimeName()).string(f.runtimeVersion())
                .string(f.osName()).string(f.osVersion()).uint32(f.kafkaPartition()).uint64(f.kafkaOffset()).float64(f.sampleRate())
                .uint16(retentionDays).string(f.release());
    }

    public byte[] takeBytes() {
        return out.takeBytes();
    }

    private String text(int column) {
        return values[column] == null ? "" : (String) values[column];
    }

    private Double decimal(int column) {
        return values[column] instanceof Number number ? number.doubleValue() : null;
    }

    private long number(int column) {
        return values[column] == null ? 0 : (Long) values[column];
    }

    private static Map<String, Integer> index() {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < COLUMNS.size(); i++) {
            index.put(COLUMNS.get(i), i);
        }
        return Map.copyOf(index);
    }
}
