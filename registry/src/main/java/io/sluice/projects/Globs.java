package io.sluice.projects;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Glob patterns, each matched against a whole text, ignoring case (Relay's glob patterns):
 * {@code *} any characters ({@code /} included), {@code ?} one, {@code [abc]} one of a set
 * ({@code [!abc]} none of it), {@code {a,b}} one of the alternatives, {@code \} escapes the next
 * character. {@code *}{@code /healthz} matches {@code GET /healthz}; {@code ChunkLoadError: *} matches
 * {@code ChunkLoadError: Loading chunk 175 failed.}. Blank patterns are dropped.
 *
 * <p>Each pattern is read once into {@link Wildcard}s when built (when a project record is read: its
 * JSON form is the list of patterns), and only read afterwards. A match takes time in proportion to
 * the text's length times the pattern's, however many {@code *} the pattern has: the sender chooses
 * the text, and matching runs on the gateway's event loop.
 */
public final class Globs {
    /** Most patterns in one list: every event of a project may be matched against each. */
    public static final int MAX_PATTERNS = 50;
    /** Longest pattern, in characters. */
    public static final int MAX_PATTERN_LENGTH = 256;
    /** Characters of a text matched at most: a match's cost grows with the length, and an event's texts are the sender's. */
    public static final int MAX_TEXT = 1024;
    public static final Globs NONE = new Globs(List.of());

    private final List<String> patterns;
    /** Each pattern's wildcards, one per alternative of its {@code {..}}. */
    private final Wildcard[][] compiled;
    /**
     * Each pattern's longest run of plain ASCII characters, lower case ("" when it has none): a text
     * without it cannot match, which {@link String#contains} tells faster than the pattern.
     */
    private final String[] required;

    private Globs(List<String> patterns) {
        this.patterns = patterns;
        this.compiled = new Wildcard[patterns.size()][];
        this.required = new String[patterns.size()];
        for (int i = 0; i < compiled.length; i++) {
            compiled[i] = Wildcard.of(patterns.get(i)).toArray(Wildcard[]::new);
            required[i] = requiredText(patterns.get(i));
        }
    }

    /**
     * @throws IllegalArgumentException when there are more than {@link #MAX_PATTERNS}, or one is longer than
     *         {@link #MAX_PATTERN_LENGTH} or has more than {@link Wildcard#MAX_ALTERNATIVES} alternatives
     */
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
        for (String pattern : kept) {
            if (pattern.length() > MAX_PATTERN_LENGTH) {
                throw new IllegalArgumentException("a pattern has at most " + MAX_PATTERN_LENGTH + " characters, got "
                        + pattern.length());
            }
        }
        return new Globs(List.copyOf(kept));
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
        if (text == null || compiled.length == 0) {
            return false;
        }
        String cut = text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) : text;
        String lower = cut.toLowerCase(Locale.ROOT);
        int[] folded = null;
        for (int i = 0; i < compiled.length; i++) {
            if (!lower.contains(required[i])) {
                continue;
            }
            if (folded == null) {
                folded = cut.codePoints().map(Wildcard::fold).toArray();
            }
            for (Wildcard wildcard : compiled[i]) {
                if (wildcard.matches(folded)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The longest run of letters, digits and {@code / - _ . : space} outside any {@code [..]} or
     * {@code {..}} and not escaped, lower case: what every text the pattern matches contains.
     */
    private static String requiredText(String glob) {
        String longest = "";
        StringBuilder run = new StringBuilder();
        int depth = 0;
        for (int i = 0; i <= glob.length(); i++) {
            char c = i < glob.length() ? glob.charAt(i) : '*';
            boolean plain = depth == 0 && c < 128 && (Character.isLetterOrDigit(c) || "/-_.: ".indexOf(c) >= 0);
            if (plain) {
                run.append(Character.toLowerCase(c));
                continue;
            }
            if (run.length() > longest.length()) {
                longest = run.toString();
            }
            run.setLength(0);
            if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && depth > 0) {
                depth--;
            } else if (c == '\\') {
                i++; // the escaped character is plain text, but is left out of the run: simpler than its case
            }
        }
        return longest;
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
