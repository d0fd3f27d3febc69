package io.sluice.gateway.validate;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An event as {@link EventWriter} wrote it: its bytes, the tree parsing them would read, and what
 * the parser's limits look at ({@link EventValidator#parse(WrittenEvent)} parses the bytes after
 * all when the tree comes near them, so that an event is refused by exactly the parser's words).
 *
 * @param tokens        JSON tokens (names, values, each object's and array's start and end)
 * @param depth         objects and arrays nested at most
 * @param longestText          the longest string value, in chars (as the parser counts them)
 * @param longestNameBytes     the longest name, in UTF-8 bytes (as the parser counts them)
 * @param nameTheParserRefuses whether an object was given a name twice, or a name holds a
 *                             surrogate (written escaped, which the parser refuses in a name)
 */
public record WrittenEvent(byte[] json, ObjectNode tree, long tokens, int depth, int longestText, int longestNameBytes,
                           boolean nameTheParserRefuses) {
}
