package io.sluice.processor.parse;

/** A record the processor cannot use; it goes to the dead-letter topic with this reason. */
public final class UnprocessableRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnprocessableRecordException(String reason) {
        super(reason, null, false, false);
    }
}
