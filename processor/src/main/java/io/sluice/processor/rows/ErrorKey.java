package io.sluice.processor.rows;

/** What errors are grouped by, besides the minute. */
public record ErrorKey(String project, String environment, String exceptionType) {
}
