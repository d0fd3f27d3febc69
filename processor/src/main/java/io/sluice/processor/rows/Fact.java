package io.sluice.processor.rows;

/** What every parsed event has: whose it is, its id, and when it arrived. */
public interface Fact {
    String project();

    String eventId();

    long receivedAt();
}
