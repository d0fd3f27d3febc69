package io.sluice.gateway.validate;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An event as {@link EventWriter} wrote it: its bytes, the tree parsing them would read, and what
 * the parser's limits look at ({@link EventValidator#parse(WrittenEvent)} parses the bytes after
 * all when the tree comes near them, so that an event is refused by exactly the parser's words).
 *
 * @param tokens        JSON tokens (names, values, each object's and array's start and end)
 * @param depth         objects and arrays nested at most
 * @param longestText   the longest name or string, in chars
 * @param duplicateName whether an object was given a name twice (which the parser refuses)
 */
public record WrittenEvent(byte[] json, ObjectNode tree, long tokens, int depth, int longestText, boolean duplicateName) {
}
