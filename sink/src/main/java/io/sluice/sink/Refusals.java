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
     * ClickHouse error codes for input it cannot read or store (src/Common/ErrorCodes.cpp), the
     * ones JSONEachRow inserts produce. E.g. 27 for a string in a numeric column, 25 for a lone
     * surrogate escape, 41 for a bad DateTime, 33 for a truncated row.
     */
    static final Set<Integer> DATA_ERRORS = Set.of(
            6,   // CANNOT_PARSE_TEXT
            25,  // CANNOT_PARSE_ESCAPE_SEQUENCE
            26,  // CANNOT_PARSE_QUOTED_STRING
            27,  // CANNOT_PARSE_INPUT_ASSERTION_FAILED
            32,  // ATTEMPT_TO_READ_AFTER_EOF
            33,  // CANNOT_READ_ALL_DATA
            38,  // CANNOT_PARSE_DATE
            41,  // CANNOT_PARSE_DATETIME
            53,  // TYPE_MISMATCH
            69,  // ARGUMENT_OUT_OF_BOUND
            70,  // CANNOT_CONVERT_TYPE
            72,  // CANNOT_PARSE_NUMBER
            117, // INCORRECT_DATA
            130, // CANNOT_READ_ARRAY_FROM_TEXT
            131, // TOO_LARGE_STRING_SIZE
            321, // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
            349, // CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN
            407, // DECIMAL_OVERFLOW
            691  // UNKNOWN_ELEMENT_OF_ENUM
    );

    private Refusals() {
    }

    /** ClickHouse's message when it refused the data itself; empty for every other failure. */
    public static Optional<String> refusedData(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ServerException server) {
                return DATA_ERRORS.contains(server.getCode()) ? Optional.of(reason(server)) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The server's message on one line, without the client's decorations. */
    private static String reason(ServerException server) {
        String message = server.getMessage() == null ? "code " + server.getCode() : server.getMessage().strip();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
