package io.sluice.projects;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
    public static final Globs NONE = new Globs(List.of());

    private final List<String> patterns;
    /** Each pattern compiled. */
    private final Pattern[] compiled;
    /**
     * Each pattern's longest run of plain ASCII characters, lower case ("" when it has none): a text
     * without it cannot match, which {@link String#contains} tells faster than the pattern.
     */
    private final String[] required;

    private Globs(List<String> patterns) {
        this.patterns = patterns;
        this.compiled = new Pattern[patterns.size()];
        this.required = new String[patterns.size()];
        for (int i = 0; i < compiled.length; i++) {
            compiled[i] = Pattern.compile(regexOf(patterns.get(i)), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
            required[i] = requiredText(patterns.get(i));
        }
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
        for (int i = 0; i < compiled.length; i++) {
            if (lower.contains(required[i]) && compiled[i].matcher(cut).matches()) {
                return true;
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
