package io.sluice.events;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Reads a payload's JSON object in one pass and keeps only the fields at the given pointers: a
 * small tree in which each of those pointers finds exactly what it finds in the whole tree
 * ({@link #FULL}'s {@code readTree}), so {@link SentryFields} reads both alike. Everything else is
 * read and checked as the whole tree would be (every string decoded, every number converted, the
 * nesting limit) but not kept. A name given twice keeps its last value, as the tree does.
 *
 * <p>Only objects are walked: a pointer's segments are names, never array indexes. A pointer's
 * value that is an object or a list is kept whole.
 */
public final class PrunedEventReader {
    /** How the whole tree is read: the nesting limit of {@link SentryFields#MAX_NESTING_DEPTH}. */
    public static final ObjectMapper FULL = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(SentryFields.MAX_NESTING_DEPTH).build()).build());
    private static final JsonNodeFactory NODES = FULL.getNodeFactory();

    private final Level root = new Level();

    /** @param pointers JSON pointers of plain names ({@code /contexts/trace/data/url}); none a prefix of another */
    public PrunedEventReader(String... pointers) {
        for (String pointer : pointers) {
            if (!pointer.startsWith("/") || pointer.contains("~")) {
                throw new IllegalArgumentException("not a pointer of plain names: " + pointer);
            }
            Level level = root;
            String[] names = pointer.substring(1).split("/", -1);
            for (int i = 0; i < names.length; i++) {
                if (level.keep) {
                    throw new IllegalArgumentException("a pointer within a kept value: " + pointer);
                }
                level = level.children.computeIfAbsent(names[i], name -> new Level());
                if (i == names.length - 1) {
                    if (!level.children.isEmpty()) {
                        throw new IllegalArgumentException("a pointer to a value other pointers walk into: " + pointer);
                    }
                    level.keep = true;
                }
            }
        }
    }

    /**
     * The kept fields of {@code json}, a JSON object; null when {@code json} is anything else or
     * not valid JSON (the whole tree's reading then says why).
     */
    public ObjectNode read(byte[] json) {
        if (json.length >= FULL.getFactory().streamReadConstraints().getMaxStringLength()) {
            return null; // only so large could a string be too long for the tree: let it say so
        }
        try (JsonParser parser = FULL.getFactory().createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            // As readTree: what follows the object is not read.
            return object(parser, root);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The parser is on the object's START_OBJECT; returns on its END_OBJECT. */
    private ObjectNode object(JsonParser parser, Level level) throws IOException {
        ObjectNode kept = NODES.objectNode();
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken token = parser.nextToken();
            Level child = level.children.get(name);
            if (child == null) {
                skip(parser, token);
            } else if (child.keep) {
                kept.set(name, token == JsonToken.VALUE_STRING ? TextNode.valueOf(parser.getText()) : FULL.readTree(parser));
            } else if (token == JsonToken.START_OBJECT) {
                kept.set(name, object(parser, child));
            } else {
                // Not an object: no pointer finds anything within it, as in the tree.
                kept.remove(name);
                skip(parser, token);
            }
        }
        if (parser.currentToken() != JsonToken.END_OBJECT) {
            throw new IOException("unexpected " + parser.currentToken());
        }
        return kept;
    }

    /** Reads past a value, doing with each token what building the tree does, so it fails where the tree fails. */
    private static void skip(JsonParser parser, JsonToken first) throws IOException {
        int depth = 0;
        JsonToken token = first;
        while (true) {
            if (token == null) {
                throw new IOException("unexpected end of input");
            }
            switch (token) {
                case START_OBJECT, START_ARRAY -> depth++;
                case END_OBJECT, END_ARRAY -> depth--;
                case VALUE_STRING -> parser.getTextLength(); // decoded (and its UTF-8 checked) as the tree does
                case VALUE_NUMBER_INT -> {
                    if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                        parser.getBigIntegerValue();
                    }
                }
                case VALUE_NUMBER_FLOAT -> {
                    parser.getNumberTypeFP();
                    parser.getDoubleValue();
                }
                default -> {
                }
            }
            if (depth == 0) {
                return;
            }
            token = parser.nextToken();
        }
    }

    private static final class Level {
        final Map<String, Level> children = new HashMap<>();
        boolean keep;
    }
}
