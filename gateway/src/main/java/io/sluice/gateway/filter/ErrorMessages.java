package io.sluice.gateway.filter;

import com.fasterxml.jackson.databind.JsonNode;

import io.sluice.events.SentryFields;
import io.sluice.projects.Globs;

/** An error whose message, or one of whose exceptions as {@code type: value} (either alone when the other is empty), a pattern matches. */
final class ErrorMessages {
    private ErrorMessages() {
    }

    static boolean matches(JsonNode error, Globs patterns) {
        String message = SentryFields.message(error);
        if (!message.equals(SentryFields.NO_MESSAGE) && patterns.matches(message)) {
            return true;
        }
        JsonNode exceptions = SentryFields.exceptions(error);
        if (exceptions == null) {
            return false;
        }
        for (JsonNode exception : exceptions) {
            String type = SentryFields.text(exception, "/type");
            String value = SentryFields.text(exception, "/value");
            String text = type.isEmpty() ? value : value.isEmpty() ? type : type + ": " + value;
            if (!text.isEmpty() && patterns.matches(text)) {
                return true;
            }
        }
        return false;
    }
}
