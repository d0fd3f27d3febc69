package io.sluice.metrics;

/** One answer to a scrape: the body in the format the scraper asked for, and that format's content type. */
public record Scrape(byte[] body, String contentType) {
}
