package io.sluice.cli;

/** A mistake in how a command was called: {@code sluice: message}, the usage, and exit code 2. */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
