package io.sluice.gateway.scrub;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Secrets inside a text, whatever field holds it: a query parameter or form field with a
 * sensitive name ({@code ?token=…&password=…}, {@code request.query_string}; a quoted value whole,
 * {@code password="correct horse"}), such a name's value in JSON or a Python repr kept as text
 * ({@code "password": "…"}, {@code 'password': '…'}, {@code \"password\": \"…\"}), a {@code Bearer} token, a card number
 * (13 to 19 digits, an issuer's first digit, Luhn's check), a PEM private key, the credentials
 * of a URL ({@code https://user:pass@host}). Each is replaced by {@link Scrubber#MARKER}. Every
 * scan is linear in the text, and skipped at the cost of a character search when the text cannot
 * hold what it looks for.
 */
final class SecretsInText {
    static final String CARD_RULE = "@creditcard:filter";
    static final String PEM_RULE = "@pemkey:filter";
    static final String URL_AUTH_RULE = "@urlauth:filter";
    static final String BEARER_RULE = "@bearer:filter";

    /**
     * The name of name=value, after the text's start or a separator; a name cannot hold a separator,
     * so runs never overlap. '#' too: OAuth's implicit flow returns {@code #access_token=…} in the
     * URL's fragment. The value is read by hand ({@link #parameters}).
     */
    private static final Pattern PARAMETER = Pattern.compile("(?<![^?&;#\\s])([^=&?#;\\s]+)=");
    /** What ends a parameter's value that is not quoted: a separator or whitespace (the regex's {@code \s}). */
    private static final String VALUE_ENDS = "&#; \t\n\013\f\r";
    /**
     * The start of {@code "name": "value"} inside a text: a JSON body kept as a string
     * ({@code request.data}, a logged message), a Python dict's repr ({@code 'name': 'value'}, either
     * quote on either side), JSON kept as text inside JSON kept as text ({@code \"name\": \"value\"}).
     * The name is group 1 or 2; group 3 opens the value, which is read by hand ({@link #quotedValue};
     * a repeated group in a Java regex recurses per character: a long value would overflow the stack).
     */
    private static final Pattern QUOTED_NAME = Pattern.compile(
            "(?:\"([^\"\\\\]{1,64})\\\\{0,8}\"|'([^'\\\\]{1,64})\\\\{0,8}')\\s{0,8}:\\s{0,8}(\\\\{0,8}[\"'])");
    /** {@code Bearer <token>} in any text (a logged header): the token is a credential, whatever field holds it. */
    private static final Pattern BEARER = Pattern.compile("(?i)(?<![\\w-])bearer\\s{1,8}([A-Za-z0-9._~+/-]+=*)");
    /**
     * A run of digits with single spaces or dashes between them, whole (possessive: never a part of
     * one), not glued to a hex digit nor to a UUID's group of four ({@code abcd-4111…}, {@code …1111-abcd}):
     * trace ids, hashes and UUIDs hold such runs. A letter past f, an underscore or a dash before a
     * word ({@code 4111111111111111-exp}) is no such sign.
     */
    private static final Pattern CARD_RUN = Pattern.compile(
            "(?<![0-9A-Fa-f])(?<!\\d[ -])(?<![0-9A-Fa-f]{4}-)\\d(?:[ -]?\\d)*+(?![A-Fa-f])(?!-[0-9A-Fa-f]{4})");
    /** A card's groups as people write them are 3 digits or more (4-4-4-4, Amex's 4-6-5, a 19-digit card's last 3). */
    private static final int SHORTEST_GROUP = 3;
    private static final Pattern PEM = Pattern.compile(
            "-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----.*?(?:-----END[A-Z ]{0,40}PRIVATE KEY-----|\\z)", Pattern.DOTALL);

    /** {@code -----BEGIN PRIVATE KEY-----}: no shorter text holds a key. */
    private static final int PEM_SHORTEST = 27;

    private SecretsInText() {
    }

    /** The text without its secrets, or null when it has none; {@code rules} hears each rule that applied. */
    static String scrub(String text, SensitiveNames names, Consumer<String> rules) {
        // One pass decides which scans can find anything: most texts need none.
        // digits: the longest run of digits with single spaces or dashes between them, as a card is written
        int digits = 0;
        int run = 0;
        boolean equals = false;
        boolean at = false;
        // quotedName: a quote, up to 8 spaces, a colon, as a quoted name ends
        boolean quotedName = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                digits = Math.max(digits, ++run);
                continue;
            }
            boolean separatorInRun = (c == ' ' || c == '-') && i > 0 && text.charAt(i - 1) >= '0' && text.charAt(i - 1) <= '9';
            if (!separatorInRun) {
                run = 0;
            }
            if (c == '=') {
                equals = true;
            } else if (c == '@') {
                at = true;
            } else if (c == ':' && !quotedName) {
                quotedName = endsQuotedName(text, i);
            }
        }
        if (digits < 13 && !equals && !at && !quotedName && text.length() < PEM_SHORTEST) {
            return null;
        }
        String scrubbed = text;
        if (equals) {
            scrubbed = parameters(scrubbed, names, rules);
        }
        if (quotedName) {
            scrubbed = quotedPairs(scrubbed, names, rules);
        }
        if (digits >= 13) {
            scrubbed = cards(scrubbed, rules);
        }
        if (scrubbed.length() >= 8 && (scrubbed.contains("earer") || scrubbed.contains("EARER"))) {
            scrubbed = replaceGroup(scrubbed, BEARER, rules, BEARER_RULE);
        }
        if (scrubbed.length() >= PEM_SHORTEST && scrubbed.contains("PRIVATE KEY-----")) {
            Matcher pem = PEM.matcher(scrubbed);
            if (pem.find()) {
                rules.accept(PEM_RULE);
                scrubbed = pem.replaceAll(Scrubber.MARKER);
            }
        }
        if (at && scrubbed.contains("//")) {
            scrubbed = urlCredentials(scrubbed, rules);
        }
        return scrubbed == text ? null : scrubbed;
    }

    /** Whether the colon at {@code colon} follows a quote, with at most 8 spaces between, as in {@link #QUOTED_NAME}. */
    private static boolean endsQuotedName(String text, int colon) {
        for (int i = colon - 1; i >= 0 && i >= colon - 9; i--) {
            char c = text.charAt(i);
            if (c == '"' || c == '\'') {
                return true;
            }
            if (!Character.isWhitespace(c)) {
                return false;
            }
        }
        return false;
    }

    /** A whole number written as a card number is one (a JSON number with 13 to 19 digits). */
    static boolean isCardNumber(String digits) {
        if (digits.length() < 13 || digits.length() > 19) {
            return false;
        }
        // Issuers' first digits (Mastercard 2 and 5, Amex, Diners and JCB 3, Visa 4, Discover 6):
        // spares epoch milliseconds (1…), which pass Luhn's check one time in ten.
        char first = digits.charAt(0);
        if (first < '2' || first > '6') {
            return false;
        }
        int sum = 0;
        for (int i = 0; i < digits.length(); i++) {
            int digit = digits.charAt(digits.length() - 1 - i) - '0';
            if (i % 2 == 1) {
                digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
            }
            sum += digit;
        }
        return sum % 10 == 0;
    }

    private static String parameters(String text, SensitiveNames names, Consumer<String> rules) {
        Matcher parameter = PARAMETER.matcher(text);
        Replaced out = new Replaced(text);
        int from = 0;
        // Where the run of value characters being read ends: a parameter inside a value
        // (next=…?token=…) ends where that value does, so no character is read twice.
        int runEnd = -1;
        while (from < text.length() && parameter.find(from)) {
            int at = parameter.end();
            // A quoted value runs to its closing quote, spaces and separators included.
            Span value = quotedValue(text, at);
            if (value == null) {
                if (runEnd < at) {
                    runEnd = at;
                    while (runEnd < text.length() && VALUE_ENDS.indexOf(text.charAt(runEnd)) < 0) {
                        runEnd++;
                    }
                }
                value = new Span(at, runEnd, runEnd);
            }
            String rule = names.ruleFor(parameter.group(1));
            // A value that stays is searched too: it may hold a URL with its own query (next=…?token=…).
            from = rule == null ? value.start() : value.next();
            if (rule == null || value.holdsNothing(text)) {
                continue;
            }
            rules.accept(rule);
            out.replace(value.start(), value.end());
        }
        return out.result();
    }

    private static String quotedPairs(String text, SensitiveNames names, Consumer<String> rules) {
        Matcher name = QUOTED_NAME.matcher(text);
        Replaced out = new Replaced(text);
        int from = 0;
        while (from < text.length() && name.find(from)) {
            Span value = quotedValue(text, name.start(3));
            String rule = names.ruleFor(name.group(1) != null ? name.group(1) : name.group(2));
            // A value that stays is searched too: it may be JSON kept as text inside JSON kept as text.
            from = rule == null ? value.start() : value.next();
            if (rule == null || value.holdsNothing(text)) {
                continue;
            }
            rules.accept(rule);
            out.replace(value.start(), value.end());
        }
        return out.result();
    }

    /** A value in a text, {@code [start, end)}, and where the text goes on after it (past its closing quote). */
    private record Span(int start, int end, int next) {
        /** Empty, or the marker already: nothing to remove. */
        boolean holdsNothing(String text) {
            return end == start || (end - start == Scrubber.MARKER.length() && text.startsWith(Scrubber.MARKER, start));
        }
    }

    /**
     * The quoted value that opens at {@code at} (a quote, after the backslashes that escape it in JSON
     * kept as text inside JSON), or null when no quote opens there. It closes at the same quote with
     * as many backslashes before it, counted modulo what one more level of escaping adds: at the top
     * level {@code \"} is inside the value and {@code \\"} closes it; one level down {@code \\\"} is
     * inside and {@code \"} closes. A value never closed runs to the end of the text.
     */
    private static Span quotedValue(String text, int at) {
        int escapes = 0;
        while (at + escapes < text.length() && text.charAt(at + escapes) == '\\') {
            escapes++;
        }
        char quote = at + escapes < text.length() ? text.charAt(at + escapes) : 0;
        if (quote != '"' && quote != '\'') {
            return null;
        }
        int start = at + escapes + 1;
        int period = 2 * escapes + 2;
        for (int q = text.indexOf(quote, start); q >= 0; q = text.indexOf(quote, q + 1)) {
            int run = 0;
            while (q - run - 1 >= start && text.charAt(q - run - 1) == '\\') {
                run++;
            }
            if (run % period == escapes) {
                return new Span(start, q - escapes, q + 1);
            }
        }
        return new Span(start, text.length(), text.length());
    }

    /** Every match's first group replaced by the marker. */
    private static String replaceGroup(String text, Pattern pattern, Consumer<String> rules, String rule) {
        Matcher match = pattern.matcher(text);
        Replaced out = new Replaced(text);
        while (match.find()) {
            if (match.group(1).equals(Scrubber.MARKER)) {
                continue;
            }
            rules.accept(rule);
            out.replace(match.start(1), match.end(1));
        }
        return out.result();
    }

    private static String cards(String text, Consumer<String> rules) {
        Matcher run = CARD_RUN.matcher(text);
        Replaced out = new Replaced(text);
        while (run.find()) {
            if (isCardNumber(digitsOf(text, run.start(), run.end()))) {
                rules.accept(CARD_RULE);
                out.replace(run.start(), run.end());
            } else {
                cardsAmongGroups(text, run.start(), run.end(), rules, out);
            }
        }
        return out.result();
    }

    /**
     * In a run that is not one card, a card beside other numbers ({@code 2 4111 1111 1111 1111},
     * {@code 4111 1111 1111 1111 12/29 123}): from each group on, the longest window of whole groups,
     * each of {@link #SHORTEST_GROUP} digits or more, that is a card number.
     */
    private static void cardsAmongGroups(String text, int start, int end, Consumer<String> rules, Replaced out) {
        int[] groups = groupBounds(text, start, end);
        for (int first = 0; first < groups.length; first += 2) {
            int digits = 0;
            int longest = -1;
            for (int last = first; last < groups.length; last += 2) {
                int length = groups[last + 1] - groups[last];
                digits += length;
                if (length < SHORTEST_GROUP || digits > 19) {
                    break;
                }
                if (digits >= 13 && isCardNumber(digitsOf(text, groups[first], groups[last + 1]))) {
                    longest = last;
                }
            }
            if (longest >= 0) {
                rules.accept(CARD_RULE);
                out.replace(groups[first], groups[longest + 1]);
                first = longest;
            }
        }
    }

    /** Each group of digits in the run, as start and end pairs. */
    private static int[] groupBounds(String text, int start, int end) {
        int[] bounds = new int[16];
        int count = 0;
        int i = start;
        while (i < end) {
            int groupEnd = i;
            while (groupEnd < end && text.charAt(groupEnd) >= '0' && text.charAt(groupEnd) <= '9') {
                groupEnd++;
            }
            if (count + 2 > bounds.length) {
                bounds = Arrays.copyOf(bounds, bounds.length * 2);
            }
            bounds[count++] = i;
            bounds[count++] = groupEnd;
            i = groupEnd + 1;
        }
        return Arrays.copyOf(bounds, count);
    }

    /** The digits between start and end, without the spaces and dashes between them. */
    private static String digitsOf(String text, int start, int end) {
        StringBuilder digits = new StringBuilder(Math.min(end - start, 20));
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c != ' ' && c != '-') {
                digits.append(c);
            }
        }
        return digits.toString();
    }

    /**
     * {@code //user:password@} or {@code //user@} becomes {@code //[Filtered]@}. Scanned by hand from
     * each {@code //}: the user part stops at the next {@code /}, so the scans never overlap.
     */
    private static String urlCredentials(String text, Consumer<String> rules) {
        Replaced out = new Replaced(text);
        int from = 0;
        while (true) {
            int slashes = text.indexOf("//", from);
            if (slashes < 0) {
                break;
            }
            int start = slashes + 2;
            int end = start;
            while (end < text.length() && "/@?#\"' \t\r\n".indexOf(text.charAt(end)) < 0) {
                end++;
            }
            if (end < text.length() && text.charAt(end) == '@' && end > start
                    && !text.substring(start, end).equals(Scrubber.MARKER)) {
                rules.accept(URL_AUTH_RULE);
                out.replace(start, end);
            }
            from = Math.max(end, start);
        }
        return out.result();
    }
}
