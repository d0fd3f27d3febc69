package io.sluice.events;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A transaction's route: the name it is counted under in the per-route aggregates, with the
 * variable parts of its path replaced. Placeholder until normalization lands: the method and the
 * path as sent, else the transaction name.
 */
public final class Routes {
    private Routes() {
    }

    public static String of(JsonNode event, String method, String transaction, String path) {
        if (path.isEmpty()) {
            return transaction;
        }
        return method.isEmpty() ? path : method + ' ' + path;
    }
}
