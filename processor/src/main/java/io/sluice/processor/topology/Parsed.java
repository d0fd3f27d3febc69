package io.sluice.processor.topology;

import io.sluice.processor.rows.Fact;

/** A raw record after parsing: the fact, or the reason it could not be parsed (with the raw bytes). */
record Parsed<F extends Fact>(F fact, byte[] raw, String failure) {
    boolean failed() {
        return failure != null;
    }
}
