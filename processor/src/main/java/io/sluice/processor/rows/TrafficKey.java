package io.sluice.processor.rows;

/** What traffic is grouped by, besides the minute. */
public record TrafficKey(String project, String environment) {
}
