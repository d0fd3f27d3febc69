package io.sluice.processor.parse;

import org.apache.kafka.common.header.Headers;

import io.sluice.events.FieldsHeader;
import io.sluice.events.InvalidFieldException;
import io.sluice.events.TransactionFields;
import io.sluice.processor.parse.RecordsReadFromJson.Kind;
import io.sluice.processor.rows.TransactionFact;

/**
 * Turns a raw transaction record (the client's JSON plus the gateway's headers) into a
 * {@link TransactionFact}: its fields as the gateway read them ({@code FieldsHeader}), or read from
 * the JSON, the same way, when the record has none (counted). No I/O; its only state is that count.
 */
public final class TransactionParser implements RawParser<TransactionFact> {
    private final RecordsReadFromJson readFromJson;

    public TransactionParser(RecordsReadFromJson readFromJson) {
        this.readFromJson = readFromJson;
    }

    /** @throws UnprocessableRecordException with the reason, for the dead-letter topic */
    @Override
    public TransactionFact parse(byte[] json, Headers headers, long recordTimestamp, int partition, long offset) {
        RawRecord raw = RawRecord.of(headers, recordTimestamp);
        TransactionFields fields = TransactionFields.fromHeader(headers);
        if (fields == null) {
            readFromJson.add(Kind.TRANSACTION, FieldsHeader.whyUnread(headers));
            fields = fromJson(json);
        }
        return new TransactionFact(raw.eventId(), raw.project(), raw.eventTime(), raw.receivedAt(), raw.timeAdjusted(),
                fields.environment(), fields.transaction(), fields.method(), fields.url(), fields.path(), fields.statusCode(),
                fields.userId(), fields.sdkName(), fields.sdkVersion(), fields.runtimeName(), fields.runtimeVersion(),
                fields.osName(), fields.osVersion(), partition, offset,
                fields.route(), fields.op(), fields.durationMs(), fields.sampleRate().rate(), fields.release());
    }

    private static TransactionFields fromJson(byte[] json) {
        try {
            return TransactionFields.of(RawRecord.readObject(json));
        } catch (InvalidFieldException e) {
            throw new UnprocessableRecordException(e.field() + ": " + e.getMessage());
        }
    }
}
