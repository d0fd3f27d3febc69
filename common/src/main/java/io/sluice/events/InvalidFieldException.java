package io.sluice.events;

/** A field of a client's payload that is present but unusable: its JSON path and what is wrong. */
public final class InvalidFieldException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String field;

    public InvalidFieldException(String field, String message) {
        super(message, null, false, false);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
