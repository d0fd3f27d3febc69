package io.sluice.processor.parse;

import org.apache.kafka.common.header.Headers;

import io.sluice.events.ErrorFields;
import io.sluice.events.FieldsHeader;
import io.sluice.processor.parse.RecordsReadFromJson.Kind;
import io.sluice.processor.rows.Columns;
import io.sluice.processor.rows.ErrorFact;

/**
 * Turns a raw error report into an {@link ErrorFact}: its fields as the gateway read them
 * ({@code FieldsHeader}), or read from the JSON, the same way, when the record has none (counted);
 * and the JSON itself as the payload.
 */
public final class ErrorParser implements RawParser<ErrorFact> {
    private final RecordsReadFromJson readFromJson;

    public ErrorParser(RecordsReadFromJson readFromJson) {
        this.readFromJson = readFromJson;
    }

    @Override
    public ErrorFact parse(byte[] json, Headers headers, long recordTimestamp, int partition, long offset) {
        RawRecord raw = RawRecord.of(headers, recordTimestamp);
        ErrorFields fields = ErrorFields.fromHeader(headers);
        if (fields == null) {
            readFromJson.add(Kind.ERROR, FieldsHeader.whyUnread(headers));
            fields = ErrorFields.of(RawRecord.readObject(json));
        }
        return new ErrorFact(raw.eventId(), raw.project(), raw.eventTime(), raw.receivedAt(), raw.timeAdjusted(),
                fields.environment(), fields.level(), fields.exceptionType(), fields.exceptionValue(), fields.topFrame(),
                fields.requestUrl(), fields.requestMethod(), fields.userId(), fields.sdkName(), fields.sdkVersion(),
                fields.runtimeName(), fields.runtimeVersion(), fields.osName(), fields.osVersion(),
                partition, offset, Columns.payload(json), fields.route(), fields.release());
    }
}
