package io.sluice.gateway.scrub;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A tree as UTF-8 JSON, lone surrogates included: JSON may carry them ({@code "\ud800"}) but
 * UTF-8 cannot, and Jackson's UTF-8 writer refuses them. Written as text, then each lone
 * surrogate escaped as it was sent ({@code \ud800}: it can only stand inside a string).
 */
final class JsonText {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonText() {
    }

    static byte[] utf8(JsonNode tree) {
        String text;
        try {
            text = MAPPER.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed tree is always writable", e);
        }
        int lone = firstLoneSurrogate(text, 0);
        if (lone < 0) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        int copied = 0;
        while (lone >= 0) {
            escaped.append(text, copied, lone).append(String.format("\\u%04x", (int) text.charAt(lone)));
            copied = lone + 1;
            lone = firstLoneSurrogate(text, copied);
        }
        return escaped.append(text, copied, text.length()).toString().getBytes(StandardCharsets.UTF_8);
    }

    private static int firstLoneSurrogate(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            } else if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
