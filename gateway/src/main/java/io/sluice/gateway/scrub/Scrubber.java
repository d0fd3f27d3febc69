package io.sluice.gateway.scrub;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;
import io.sluice.projects.DataScrubbing;

/**
 * Removes secrets from an event before it is published, as Sentry's default data scrubbing does:
 * the value of a field with a sensitive name (headers such as {@code Authorization}, {@code Cookie}
 * and {@code Set-Cookie}, in an object or as a list of {@code [name, value]} pairs; {@code password},
 * {@code api_key}, …; a project's own names), and secrets in any text ({@link SecretsInText}: values,
 * object keys and pairs' names alike) become {@value #MARKER}. What was removed is listed in the event's {@value #RECORD_FIELD} field, so a
 * reader sees why a value is missing. Works on the tree the validator parsed, in one walk; the
 * event is serialized again only when something was removed.
 */
public final class Scrubber {
    public static final String MARKER = "[Filtered]";
    /** {@code {"count": N, "fields": [{"path": "request.headers.Authorization", "rule": "@password:filter"}, …]}}. */
    public static final String RECORD_FIELD = "sluice_scrubbed";
    /** How many removals the record lists (the count has them all): a hostile event cannot make it large. */
    static final int MAX_LISTED = 50;
    static final int MAX_PATH_CHARS = 128;
    /**
     * How much larger than sent a scrubbed event may be (a short value becomes the marker; the
     * record): within the room the producer keeps beyond the largest event, with its headers.
     */
    static final int MAX_GROWTH_BYTES = 32 * 1024;

    private Scrubber() {
    }

    /**
     * The bytes to publish: {@code json} itself when scrubbing is off or found nothing; else the
     * scrubbed {@code event} (changed in place, so what is read from it afterwards is scrubbed too).
     * A {@value #RECORD_FIELD} the client sent is dropped.
     *
     * @throws Rejection {@code body_too_large} when the scrubbed event outgrows {@link #MAX_GROWTH_BYTES}
     */
    public static byte[] scrub(byte[] json, ObjectNode event, DataScrubbing scrubbing) {
        return scrub(json, event, scrubbing, ScrubCounter.NONE);
    }

    /** As {@link #scrub(byte[], ObjectNode, DataScrubbing)}, telling {@code counter} what was removed. */
    public static byte[] scrub(byte[] json, ObjectNode event, DataScrubbing scrubbing, ScrubCounter counter) {
        if (scrubbing.disabled()) {
            return json;
        }
        // Only the gateway writes the record: one the client sent could claim removals that never happened.
        boolean clientsRecord = event.remove(RECORD_FIELD) != null;
        Walk walk = new Walk(new SensitiveNames(scrubbing));
        walk.object(event);
        if (walk.count == 0 && !clientsRecord) {
            return json;
        }
        if (walk.count > 0) {
            event.set(RECORD_FIELD, walk.record());
        }
        byte[] scrubbed = JsonText.utf8(event);
        if (scrubbed.length > (long) json.length + MAX_GROWTH_BYTES) {
            throw new Rejection(Outcome.BODY_TOO_LARGE, "the event grows by more than " + MAX_GROWTH_BYTES
                    + " bytes once its secrets are replaced by " + MARKER);
        }
        walk.perRule.forEach(counter::removed);
        return scrubbed;
    }

    /** One event's walk: the path to the current node, and what was removed. */
    private static final class Walk {
        private final SensitiveNames names;
        /** Field names (String) and array indexes (Integer), joined only when a removal is recorded. */
        private final List<Object> path = new ArrayList<>();
        private final ArrayNode listed = JsonNodeFactory.instance.arrayNode();
        private final Set<String> rulesHere = new LinkedHashSet<>();
        private final Consumer<String> ruleHeard = rulesHere::add;
        /** Removals per rule: a handful of rules, so a small map. */
        private final Map<String, Integer> perRule = new HashMap<>(8);
        private int count;

        Walk(SensitiveNames names) {
            this.names = names;
        }

        void object(ObjectNode object) {
            ScrubbedKeys keys = null;
            int position = 0;
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                String key = field.getKey();
                // A key is text too (a DSN, a logged line used as a key). Its removals are listed under
                // the key as scrubbed, as is everything beneath it: the record must not repeat the secret.
                String scrubbedKey = scrubbedText(key);
                if (scrubbedKey == null) {
                    path.add(key);
                } else {
                    keys = keys == null ? new ScrubbedKeys(object) : keys;
                    path.add(keys.rename(key, scrubbedKey, position));
                    rulesHere.forEach(this::removed);
                }
                JsonNode replacement = field(names.ruleFor(key), field.getValue());
                if (replacement != null) {
                    field.setValue(replacement);
                }
                path.remove(path.size() - 1);
                position++;
            }
            if (keys != null) {
                keys.apply();
            }
        }

        void array(ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                path.add(i);
                JsonNode element = array.get(i);
                JsonNode replacement;
                if (element.isArray() && element.size() == 2 && element.get(0).isTextual()) {
                    // A [name, value] pair: headers, cookies, query strings and tags in Sentry's list shape.
                    // The name is judged as sent and scanned as any text: it may be a secret itself.
                    String name = element.get(0).textValue();
                    path.add(0);
                    JsonNode scrubbedName = field(null, element.get(0));
                    if (scrubbedName != null) {
                        ((ArrayNode) element).set(0, scrubbedName);
                    }
                    path.set(path.size() - 1, 1);
                    JsonNode value = field(names.ruleFor(name), element.get(1));
                    if (value != null) {
                        ((ArrayNode) element).set(1, value);
                    }
                    path.remove(path.size() - 1);
                    replacement = null;
                } else {
                    replacement = field(null, element);
                }
                if (replacement != null) {
                    array.set(i, replacement);
                }
                path.remove(path.size() - 1);
            }
        }

        /** The value's replacement, or null when it stays (containers are scrubbed in place). */
        private JsonNode field(String rule, JsonNode value) {
            if (rule != null && holdsSomething(value)) {
                removed(rule);
                return TextNode.valueOf(MARKER);
            }
            if (value.isObject()) {
                object((ObjectNode) value);
            } else if (value.isArray()) {
                array((ArrayNode) value);
            } else if (value.isTextual()) {
                String scrubbed = scrubbedText(value.textValue());
                if (scrubbed != null) {
                    rulesHere.forEach(this::removed);
                    return TextNode.valueOf(scrubbed);
                }
            } else if (value.isIntegralNumber() && !value.isInt() && SecretsInText.isCardNumber(value.bigIntegerValue().toString())) {
                removed(SecretsInText.CARD_RULE);
                return TextNode.valueOf(MARKER);
            }
            return null;
        }

        /** The text without its secrets, or null when it has none; the rules that applied are left in {@link #rulesHere}. */
        private String scrubbedText(String text) {
            rulesHere.clear();
            return SecretsInText.scrub(text, names, ruleHeard);
        }

        /** Null, booleans, empty texts and containers hide nothing: they stay, and say what the client sent. */
        private static boolean holdsSomething(JsonNode value) {
            return value.isNumber() || (value.isTextual() && !value.textValue().isEmpty() && !value.textValue().equals(MARKER))
                    || (value.isContainerNode() && !value.isEmpty());
        }

        private void removed(String rule) {
            count++;
            perRule.merge(rule, 1, Integer::sum);
            if (listed.size() < MAX_LISTED) {
                listed.addObject().put("path", pathText()).put("rule", rule);
            }
        }

        private String pathText() {
            StringBuilder text = new StringBuilder();
            for (Object segment : path) {
                if (segment instanceof Integer index) {
                    text.append('[').append(index).append(']');
                } else {
                    text.append(text.length() > 0 ? "." : "").append(segment);
                }
                if (text.length() > MAX_PATH_CHARS) {
                    int cut = MAX_PATH_CHARS;
                    if (Character.isLowSurrogate(text.charAt(cut))) {
                        cut--;
                    }
                    return text.substring(0, cut) + "…";
                }
            }
            return text.toString();
        }

        ObjectNode record() {
            ObjectNode record = JsonNodeFactory.instance.objectNode();
            record.put("count", count);
            record.set("fields", listed);
            return record;
        }
    }
}
