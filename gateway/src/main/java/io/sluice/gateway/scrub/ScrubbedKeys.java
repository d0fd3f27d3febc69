package io.sluice.gateway.scrub;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The keys of one object that held secrets, and what each becomes. Two keys that read alike once
 * scrubbed ({@code //u1:p1@h} and {@code //u2:p2@h}), or one that reads as a key already there,
 * would make one field of two: a scrubbed key that is taken gains its position, {@code " (3)"},
 * until it is unique. Applied once the object's walk is done, each field in its place.
 */
final class ScrubbedKeys {
    private final ObjectNode object;
    private final Map<String, String> renamed = new HashMap<>();
    private final Set<String> taken = new HashSet<>();

    ScrubbedKeys(ObjectNode object) {
        this.object = object;
    }

    /** The name {@code key} takes: {@code scrubbed}, unless another key of the object has it already. */
    String rename(String key, String scrubbed, int position) {
        String name = scrubbed;
        while (object.has(name) || taken.contains(name)) {
            name = name + " (" + position + ")";
        }
        taken.add(name);
        renamed.put(key, name);
        return name;
    }

    /** Renames the keys in the object, each field where it was. */
    void apply() {
        Map<String, JsonNode> inOrder = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            inOrder.put(renamed.getOrDefault(field.getKey(), field.getKey()), field.getValue());
        }
        object.removeAll();
        object.setAll(inOrder);
    }
}
