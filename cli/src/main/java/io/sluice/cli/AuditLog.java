package io.sluice.cli;

import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code io.sluice.audit} lines of a change to a project's data: one when it starts, one when it
 * is done with what it touched, or failed and why (a change may be half done then: the operator
 * needs to know it was tried).
 */
final class AuditLog {
    /** The logger's name: at info for every command (see {@link LogSettings}). */
    static final String LOGGER = "io.sluice.audit";
    private static final Logger AUDIT = LoggerFactory.getLogger(LOGGER);

    private AuditLog() {
    }

    /** Runs {@code change} between its lines; {@code what} such as "deleting user alice". */
    static <T> T change(String what, String token, String who, Supplier<T> change) {
        AUDIT.info("{} of project {}, asked by {}: started", what, token, who);
        T touched;
        try {
            touched = change.get();
        } catch (RuntimeException e) {
            AUDIT.warn("{} of project {}, asked by {}: failed: {}", what, token, who,
                    e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName());
            throw e;
        }
        AUDIT.info("{} of project {}, asked by {}: done, rows {}", what, token, who, touched);
        return touched;
    }
}
