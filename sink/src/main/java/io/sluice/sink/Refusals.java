package io.sluice.sink;

import java.util.Optional;
import java.util.Set;

import com.clickhouse.client.api.ServerException;

/**
 * Tells "ClickHouse refused this data" (a row it cannot parse or store: retrying never helps)
 * from "ClickHouse is unavailable" (connection refused, timeout, overload: retrying helps).
 * Only an answer of the server with one of the data error codes counts as refused.
 */
public final class Refusals {
    /**
     * ClickHouse error codes (src/Common/ErrorCodes.cpp) that a JSONEachRow row's content produced
     * in Sluice's tables, each seen against a real server (26.7) with rows of wrong types,
     * out-of-range and malformed numbers, dates and booleans, lone surrogates, bad escapes and
     * truncated or corrupted JSON. Codes that may as well come from the table (schema drift, a
     * failing materialized view, storage: 53 TYPE_MISMATCH, 69, 70, ...) are left out; and even
     * these are taken for a table problem when they refuse every row of a batch (see
     * {@link RowInserter}).
     */
    static final Set<Integer> DATA_ERRORS = Set.of(
            25,  // CANNOT_PARSE_ESCAPE_SEQUENCE: lone or broken surrogate escape
            26,  // CANNOT_PARSE_QUOTED_STRING: unterminated string, a missing quote
            27,  // CANNOT_PARSE_INPUT_ASSERTION_FAILED: a string, float, object or array in a number column
            32,  // ATTEMPT_TO_READ_AFTER_EOF: a row cut inside a value
            33,  // CANNOT_READ_ALL_DATA: a row cut before its end
            41,  // CANNOT_PARSE_DATETIME: "2026-02-30", "", words in a DateTime column
            72,  // CANNOT_PARSE_NUMBER: a negative number in an unsigned column
            117, // INCORRECT_DATA: an unquoted or single-quoted string
            467  // CANNOT_PARSE_BOOL: "maybe" or 2 in a Bool column
    );

    private Refusals() {
    }

    /** ClickHouse's message when it refused the data itself; empty for every other failure. */
    public static Optional<String> refusedData(Throwable failure) {
        return refusal(failure).map(Refusal::reason);
    }

    /** ClickHouse's code and message when it refused the data itself; empty for every other failure. */
    static Optional<Refusal> refusal(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ServerException server) {
                return DATA_ERRORS.contains(server.getCode())
                        ? Optional.of(new Refusal(server.getCode(), reason(server))) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** A refusal of the data: ClickHouse's error code and the first line of its message. */
    record Refusal(int code, String reason) {
    }

    /** The server's message on one line, without the client's decorations. */
    private static String reason(ServerException server) {
        String message = server.getMessage() == null ? "code " + server.getCode() : server.getMessage().strip();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
