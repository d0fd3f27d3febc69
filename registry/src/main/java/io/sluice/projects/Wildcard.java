package io.sluice.projects;

import java.util.ArrayList;
import java.util.List;

/**
 * One glob of {@link Globs}, matched without a regular expression: a greedy {@code *} that, on a
 * mismatch, goes back only to the last {@code *} seen, so a match reads each character of the text
 * at most once per pattern element (O(text × pattern)) whatever the pattern; a backtracking regex
 * could try every split of the text between the stars. Its {@code {a,b}} alternatives are expanded
 * into one wildcard each when the glob is read. Compares case-folded code points.
 */
final class Wildcard {
    /** Most wildcards one glob expands to: each is matched against every text. */
    static final int MAX_ALTERNATIVES = 64;

    private static final int STAR = -1;
    private static final int ANY_ONE = -2;
    /** Elements below this are {@code -(CLASS_BASE + i)}: the i-th character set. */
    private static final int CLASS_BASE = 3;

    /** Case-folded code points, or {@link #STAR}, {@link #ANY_ONE} or a set's index. */
    private final int[] elements;
    private final CharSet[] sets;

    private Wildcard(int[] elements, CharSet[] sets) {
        this.elements = elements;
        this.sets = sets;
    }

    /**
     * The wildcards a glob's alternatives expand to.
     * @throws IllegalArgumentException when it expands to more than {@link #MAX_ALTERNATIVES}
     */
    static List<Wildcard> of(String glob) {
        Parser parser = new Parser(glob.codePoints().toArray());
        List<Wildcard> wildcards = new ArrayList<>();
        for (List<Object> sequence : parser.sequence(0)) {
            int[] elements = new int[sequence.size()];
            List<CharSet> sets = new ArrayList<>();
            for (int i = 0; i < elements.length; i++) {
                if (sequence.get(i) instanceof CharSet set) {
                    elements[i] = -(CLASS_BASE + sets.size());
                    sets.add(set);
                } else {
                    elements[i] = (Integer) sequence.get(i);
                }
            }
            wildcards.add(new Wildcard(elements, sets.toArray(CharSet[]::new)));
        }
        return wildcards;
    }

    /** Case folding as {@link String#equalsIgnoreCase} does it, for one code point. */
    static int fold(int codePoint) {
        return Character.toLowerCase(Character.toUpperCase(codePoint));
    }

    /** Whether this matches the whole of a text given as {@link #fold folded} code points. */
    boolean matches(int[] text) {
        int t = 0;
        int p = 0;
        int lastStar = -1; // where the last * is in the pattern
        int starText = 0; // where the text was when it was reached, plus what it has taken since
        while (t < text.length) {
            if (p < elements.length && elements[p] == STAR) {
                lastStar = p++;
                starText = t;
            } else if (p < elements.length && accepts(elements[p], text[t])) {
                p++;
                t++;
            } else if (lastStar >= 0) {
                p = lastStar + 1;
                t = ++starText;
            } else {
                return false;
            }
        }
        while (p < elements.length && elements[p] == STAR) {
            p++;
        }
        return p == elements.length;
    }

    private boolean accepts(int element, int codePoint) {
        if (element >= 0) {
            return element == codePoint;
        }
        return element == ANY_ONE || sets[-element - CLASS_BASE].contains(codePoint);
    }

    /** {@code [abc]}, {@code [a-z]} or {@code [!abc]}: matches one code point, ignoring case. */
    private record CharSet(boolean negated, int[] from, int[] to) {
        boolean contains(int folded) {
            boolean in = false;
            for (int i = 0; i < from.length && !in; i++) {
                in = inRange(i, folded) || inRange(i, Character.toUpperCase(folded)) || inRange(i, Character.toLowerCase(folded));
            }
            return in != negated;
        }

        private boolean inRange(int i, int codePoint) {
            return codePoint >= from[i] && codePoint <= to[i];
        }

        /** The set between {@code [} and {@code ]}: a {@code -} between two characters is a range, anywhere else itself. */
        static CharSet of(int[] set) {
            boolean negated = set.length > 0 && set[0] == '!';
            List<int[]> ranges = new ArrayList<>();
            for (int i = negated ? 1 : 0; i < set.length; i++) {
                if (i + 2 < set.length && set[i + 1] == '-') {
                    ranges.add(new int[] {set[i], set[i + 2]});
                    i += 2;
                } else {
                    ranges.add(new int[] {set[i], set[i]});
                }
            }
            return new CharSet(negated, ranges.stream().mapToInt(r -> r[0]).toArray(), ranges.stream().mapToInt(r -> r[1]).toArray());
        }
    }

    /** Reads a glob into its expanded sequences of elements ({@link Integer} or {@link CharSet}). */
    private static final class Parser {
        private final int[] glob;
        private int at;

        Parser(int[] glob) {
            this.glob = glob;
        }

        /**
         * The sequences from here to the end, or (inside {@code depth} braces) to the next
         * {@code ,} or {@code }}. An unclosed {@code {} is closed at the end; a {@code ,} or
         * {@code }} outside braces is itself.
         */
        List<List<Object>> sequence(int depth) {
            List<List<Object>> sequences = new ArrayList<>();
            sequences.add(new ArrayList<>());
            while (at < glob.length) {
                int c = glob[at];
                if (depth > 0 && (c == ',' || c == '}')) {
                    break;
                }
                if (c == '{') {
                    at++;
                    sequences = followedByEach(sequences, alternatives(depth + 1));
                } else {
                    Object element = element();
                    for (List<Object> sequence : sequences) {
                        sequence.add(element);
                    }
                }
            }
            return sequences;
        }

        private List<List<Object>> alternatives(int depth) {
            List<List<Object>> alternatives = new ArrayList<>();
            while (true) {
                alternatives.addAll(sequence(depth));
                if (at < glob.length && glob[at] == ',') {
                    at++;
                    continue;
                }
                if (at < glob.length) {
                    at++; // its }
                }
                return alternatives;
            }
        }

        private static List<List<Object>> followedByEach(List<List<Object>> heads, List<List<Object>> tails) {
            if ((long) heads.size() * tails.size() > MAX_ALTERNATIVES) {
                throw new IllegalArgumentException("a pattern has at most " + MAX_ALTERNATIVES + " alternatives once its {..} are expanded");
            }
            List<List<Object>> joined = new ArrayList<>();
            for (List<Object> head : heads) {
                for (List<Object> tail : tails) {
                    List<Object> sequence = new ArrayList<>(head);
                    sequence.addAll(tail);
                    joined.add(sequence);
                }
            }
            return joined;
        }

        /** One element at {@link #at}, which it passes; {@code {}, {@code ,} and {@code }} are handled by the caller. */
        private Object element() {
            int c = glob[at++];
            switch (c) {
                case '*':
                    return STAR;
                case '?':
                    return ANY_ONE;
                case '\\':
                    return at < glob.length ? fold(glob[at++]) : (int) '\\';
                case '[':
                    int end = indexOf(']', at + 1);
                    if (end < 0) {
                        return (int) '[';
                    }
                    CharSet set = CharSet.of(java.util.Arrays.copyOfRange(glob, at, end));
                    at = end + 1;
                    return set;
                default:
                    return fold(c);
            }
        }

        private int indexOf(int c, int from) {
            for (int i = from; i < glob.length; i++) {
                if (glob[i] == c) {
                    return i;
                }
            }
            return -1;
        }
    }
}
