package io.sluice.events;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A project's own route patterns, tried in order before the built-in normalization of
 * {@link Routes}: the first that matches a path is its route, as written. A pattern is a path of
 * segments: a literal segment matches itself (case-sensitive, as sent, percent-encoding included),
 * {@code *} or a {@code {name}} matches any one segment, and {@code **}, only as the last segment,
 * the rest of the path (none included). {@code /shops/*}{@code /orders/*} turns
 * {@code GET /shops/acme/orders/42} into {@code GET /shops/*}{@code /orders/*}.
 *
 * <p>Built once, when a project record is read (its JSON form is the list of patterns), and only
 * read afterwards: one per project, shared by every event loop.
 */
public final class RouteRules {
    /** Most patterns a project has: every event of the project may try each of them. */
    public static final int MAX_RULES = 50;
    /** Longest pattern, in characters. */
    public static final int MAX_PATTERN_LENGTH = 256;
    public static final RouteRules NONE = new RouteRules(List.of());

    private final List<String> patterns;
    /** Each pattern's segments, in order. */
    private final String[][] compiled;

    private RouteRules(List<String> patterns) {
        this.patterns = List.copyOf(patterns);
        this.compiled = new String[patterns.size()][];
        for (int i = 0; i < patterns.size(); i++) {
            compiled[i] = segments(patterns.get(i));
        }
    }

    /** @throws IllegalArgumentException when a pattern is not one ({@link #check}), or there are more than {@link #MAX_RULES} */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static RouteRules of(List<String> patterns) {
        if (patterns == null || patterns.isEmpty()) {
            return NONE;
        }
        if (patterns.size() > MAX_RULES) {
            throw new IllegalArgumentException("a project has at most " + MAX_RULES + " route rules, got " + patterns.size());
        }
        patterns.forEach(RouteRules::check);
        return new RouteRules(patterns);
    }

    /** The patterns, in the order they are tried (the JSON form). */
    @JsonValue
    public List<String> patterns() {
        return patterns;
    }

    public boolean isEmpty() {
        return patterns.isEmpty();
    }

    /** With {@code pattern} added last; unchanged when it is already there. */
    public RouteRules with(String pattern) {
        if (patterns.contains(pattern)) {
            return this;
        }
        List<String> more = new ArrayList<>(patterns);
        more.add(pattern);
        return of(more);
    }

    /** Without {@code pattern}; unchanged when it is not there. */
    public RouteRules without(String pattern) {
        List<String> fewer = new ArrayList<>(patterns);
        fewer.remove(pattern);
        return fewer.size() == patterns.size() ? this : of(fewer);
    }

    /**
     * Whether a text is a pattern: it starts with {@code /}, has at most
     * {@link Routes#MAX_SEGMENTS} non-empty segments and {@link #MAX_PATTERN_LENGTH} characters,
     * {@code **} only last, no {@code *} inside a segment, and no query, fragment or whitespace.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static void check(String pattern) {
        if (pattern == null || !pattern.startsWith("/")) {
            throw new IllegalArgumentException("a route pattern starts with /, such as /shops/*/orders/*, got " + pattern);
        }
        if (pattern.length() > MAX_PATTERN_LENGTH) {
            throw new IllegalArgumentException("a route pattern has at most " + MAX_PATTERN_LENGTH + " characters");
        }
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '?' || c == '#' || Character.isWhitespace(c) || Character.isISOControl(c) || Character.isSurrogate(c)) {
                throw new IllegalArgumentException("a route pattern is a path: no query, fragment, space or control character, got "
                        + pattern);
            }
        }
        String[] segments = segments(pattern);
        if (segments.length == 0) {
            throw new IllegalArgumentException("a route pattern needs at least one segment, such as /health");
        }
        if (segments.length > Routes.MAX_SEGMENTS) {
            throw new IllegalArgumentException("a route pattern has at most " + Routes.MAX_SEGMENTS + " segments");
        }
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (segment.equals("**") && i != segments.length - 1) {
                throw new IllegalArgumentException("** (the rest of the path) may only be the last segment: " + pattern);
            }
            if (segment.contains("*") && !segment.equals("*") && !segment.equals("**")) {
                throw new IllegalArgumentException("* stands for a whole segment (/*/), not part of one: " + pattern);
            }
        }
    }

    /**
     * The first pattern matching these path segments (non-empty, in order, as sent; {@code more}:
     * the path goes on beyond them), or null. No allocation: this runs for every event of the project.
     */
    String match(String path, int[] starts, int[] ends, int count, boolean more) {
        for (int r = 0; r < compiled.length; r++) {
            if (matches(compiled[r], path, starts, ends, count, more)) {
                return patterns.get(r);
            }
        }
        return null;
    }

    private static boolean matches(String[] pattern, String path, int[] starts, int[] ends, int count, boolean more) {
        for (int i = 0; i < pattern.length; i++) {
            String segment = pattern[i];
            if (segment.equals("**")) {
                return true; // the rest, whatever it is
            }
            if (i >= count) {
                return false;
            }
            if (isWildcard(segment)) {
                continue;
            }
            int length = ends[i] - starts[i];
            if (length != segment.length() || !path.regionMatches(starts[i], segment, 0, length)) {
                return false;
            }
        }
        return pattern.length == count && !more;
    }

    /** {@code *} or {@code {name}}: any one segment. */
    private static boolean isWildcard(String segment) {
        return segment.equals("*") || (segment.length() > 2 && segment.charAt(0) == '{' && segment.charAt(segment.length() - 1) == '}');
    }

    private static String[] segments(String pattern) {
        List<String> segments = new ArrayList<>();
        for (String segment : pattern.split("/")) {
            if (!segment.isEmpty()) {
                segments.add(segment);
            }
        }
        return segments.toArray(String[]::new);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RouteRules rules && rules.patterns.equals(patterns);
    }

    @Override
    public int hashCode() {
        return patterns.hashCode();
    }

    @Override
    public String toString() {
        return patterns.toString();
    }
}
