package io.sluice.projects;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Glob patterns, each matched against a whole text, ignoring case (Relay's glob patterns):
 * {@code *} any characters ({@code /} included), {@code ?} one, {@code [abc]} one of a set
 * ({@code [!abc]} none of it), {@code {a,b}} one of the alternatives, {@code \} escapes the next
 * character. {@code *}{@code /healthz} matches {@code GET /healthz}; {@code ChunkLoadError: *} matches
 * {@code ChunkLoadError: Loading chunk 175 failed.}. Blank patterns are dropped.
 *
 * <p>Compiled once into one regular expression when built (when a project record is read: its
 * JSON form is the list of patterns), and only read afterwards.
 */
public final class Globs {
    /** Most patterns in one list: every event of a project may be matched against each. */
    public static final int MAX_PATTERNS = 50;
    /** Longest pattern, in characters. */
    public static final int MAX_PATTERN_LENGTH = 256;
    /**
     * Characters of a text matched at most: a pattern of several {@code *} backtracks over the text
     * (its cost grows with the square of the length), and an event's texts are the sender's.
     */
    public static final int MAX_TEXT = 1024;
    public static final Globs NONE = new Globs(List.of(), null);

    private final List<String> patterns;
    /** All patterns as one alternation; null when there is none. */
    private final Pattern compiled;

    private Globs(List<String> patterns, Pattern compiled) {
        this.patterns = patterns;
        this.compiled = compiled;
    }

    /** @throws IllegalArgumentException when there are more than {@link #MAX_PATTERNS}, or one is longer than {@link #MAX_PATTERN_LENGTH} */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static Globs of(List<String> patterns) {
        if (patterns == null) {
            return NONE;
        }
        List<String> kept = new ArrayList<>();
        for (String pattern : patterns) {
            if (pattern != null && !pattern.isBlank()) {
                kept.add(pattern.strip());
            }
        }
        if (kept.isEmpty()) {
            return NONE;
        }
        if (kept.size() > MAX_PATTERNS) {
            throw new IllegalArgumentException("at most " + MAX_PATTERNS + " patterns, got " + kept.size());
        }
        StringBuilder regex = new StringBuilder();
        for (String pattern : kept) {
            if (pattern.length() > MAX_PATTERN_LENGTH) {
                throw new IllegalArgumentException("a pattern has at most " + MAX_PATTERN_LENGTH + " characters, got "
                        + pattern.length());
            }
            regex.append(regex.isEmpty() ? "" : "|").append("(?:").append(regexOf(pattern)).append(')');
        }
        return new Globs(List.copyOf(kept), Pattern.compile(regex.toString(),
                Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL));
    }

    /** The patterns, as given (the JSON form). */
    @JsonValue
    public List<String> patterns() {
        return patterns;
    }

    public boolean isEmpty() {
        return patterns.isEmpty();
    }

    /**
     * Whether a pattern matches the whole of {@code text}, of which the first {@link #MAX_TEXT}
     * characters only are read; false for null.
     */
    public boolean matches(String text) {
        return compiled != null && text != null
                && compiled.matcher(text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) : text).matches();
    }

    /** A glob as a regular expression; what is not a glob's own syntax matches itself. */
    private static String regexOf(String glob) {
        StringBuilder regex = new StringBuilder();
        int alternatives = 0; // open {…} groups
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                case '\\' -> {
                    if (i + 1 < glob.length()) {
                        regex.append(Pattern.quote(String.valueOf(glob.charAt(++i))));
                    } else {
                        regex.append("\\\\");
                    }
                }
                case '[' -> {
                    int end = glob.indexOf(']', i + 2);
                    if (end < 0) {
                        regex.append("\\[");
                    } else {
                        regex.append(charClass(glob.substring(i + 1, end)));
                        i = end;
                    }
                }
                case '{' -> {
                    alternatives++;
                    regex.append("(?:");
                }
                case ',' -> regex.append(alternatives > 0 ? "|" : ",");
                case '}' -> {
                    if (alternatives > 0) {
                        alternatives--;
                        regex.append(')');
                    } else {
                        regex.append("\\}");
                    }
                }
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        // An unclosed {…} matches as if closed at the end.
        regex.append(")".repeat(alternatives));
        return regex.toString();
    }

    /** {@code abc} or {@code !abc} (ranges such as {@code a-z} kept) as a regex class, its other characters escaped. */
    private static String charClass(String set) {
        boolean negated = set.startsWith("!");
        StringBuilder regex = new StringBuilder(negated ? "[^" : "[");
        for (int i = negated ? 1 : 0; i < set.length(); i++) {
            char c = set.charAt(i);
            if (c == '-' && i > (negated ? 1 : 0) && i < set.length() - 1 || Character.isLetterOrDigit(c)) {
                regex.append(c);
            } else {
                regex.append('\\').append(c);
            }
        }
        return regex.append(']').toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Globs globs && globs.patterns.equals(patterns);
    }

    @Override
    public int hashCode() {
        return patterns.hashCode();
    }

    @Override
    public String toString() {
        return String.join(", ", patterns);
    }
}
