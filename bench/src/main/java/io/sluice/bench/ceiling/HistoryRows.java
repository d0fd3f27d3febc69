package io.sluice.bench.ceiling;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;

import io.sluice.bench.load.Payloads;
import io.sluice.events.EventHeaders;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.parse.TransactionParser;
import io.sluice.processor.rows.TransactionFact;
import io.sluice.processor.topology.JsonSerde;

/**
 * History rows as the processor writes them: the bench's transaction body parsed by the
 * processor's parser (with distinct event ids) and serialized by its JSON serde.
 */
public record HistoryRows(List<TransactionFact> facts, List<byte[]> json) {
    public static final String PROJECT = "bench";

    public static HistoryRows of(int rows) {
        byte[] body = Payloads.transaction();
        Serializer<TransactionFact> serializer = JsonSerde.of(TransactionFact.class).serializer();
        List<TransactionFact> facts = new ArrayList<>(rows);
        List<byte[]> json = new ArrayList<>(rows);
        long now = System.currentTimeMillis();
        TransactionParser parser = new TransactionParser(new RecordsReadFromJson());
        for (int i = 0; i < rows; i++) {
            RecordHeaders headers = new RecordHeaders();
            EventHeaders.put(headers, EventHeaders.EVENT_ID, String.format("%032x", i));
            EventHeaders.put(headers, EventHeaders.PROJECT, PROJECT);
            long time = now - i % 60_000;
            EventHeaders.put(headers, EventHeaders.EVENT_TIME, Long.toString(time));
            EventHeaders.put(headers, EventHeaders.RECEIVED_AT, Long.toString(now));
            TransactionFact fact = parser.parse(body, headers, time, i % 4, i);
            facts.add(fact);
            json.add(serializer.serialize("history", fact));
        }
        return new HistoryRows(List.copyOf(facts), List.copyOf(json));
    }

    public int size() {
        return json.size();
    }

    long bytes() {
        return json.stream().mapToLong(b -> b.length + 1).sum();
    }

    /** For messages: one row as text. */
    String sample() {
        return new String(json.get(0), StandardCharsets.UTF_8);
    }
}
