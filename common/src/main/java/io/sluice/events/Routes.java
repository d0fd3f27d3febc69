package io.sluice.events;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A transaction's route: the name it is counted under in the per-route aggregates, such as
 * {@code GET /users/{id}}. A route the client sent is kept as sent (OpenTelemetry's
 * {@code http.route}, or a Sentry transaction whose {@code transaction_info.source} says its name
 * is already one); otherwise the path (or the name) is normalized: the project's own
 * {@link RouteRules} first, then each segment that is an identifier is replaced by its kind.
 *
 * <p>A pure function of its inputs, without regular expressions: it runs for every event on the
 * gateway's event loop. Its work and output are bounded: at most {@link #MAX_LENGTH} characters
 * of the path are read and written, at most {@link #MAX_SEGMENTS} segments.
 */
public final class Routes {
    /** Longest route, in UTF-16 units (a surrogate pair is never split); the longest path read. */
    public static final int MAX_LENGTH = 512;
    /** Most segments of a path kept; the rest becomes {@code /**}. */
    public static final int MAX_SEGMENTS = 32;
    /** What stands for the segments beyond the limits (as {@code **} in a rule: the rest of the path). */
    static final String REST = "**";

    /**
     * Sentry's {@code transaction_info.source} values whose names are low-cardinality already
     * (Relay normalizes only {@code url} and {@code sanitized}, and names without a source).
     */
    private static final Set<String> KEPT_SOURCES = Set.of("route", "view", "component", "custom", "task");
    private static final Set<String> HTTP_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT",
            "OPTIONS", "TRACE", "PATCH");

    private Routes() {
    }

    /**
     * The route of an event: {@code contexts.trace.data["http.route"]} as sent, else its
     * {@code name} as sent when its source says it is a route, else {@link #normalize} of its
     * {@code path} (or its name when it has no path). The method goes first when known.
     */
    public static String of(JsonNode event, String method, String name, String path, RouteRules rules) {
        String httpRoute = SentryFields.text(event, "/contexts/trace/data/http.route");
        if (!httpRoute.isEmpty()) {
            return kept(method, httpRoute);
        }
        if (!name.isEmpty() && KEPT_SOURCES.contains(SentryFields.text(event, "/transaction_info/source"))) {
            return kept(method, name);
        }
        return normalize(method, path.isEmpty() ? name : path, rules);
    }

    /** A name the client sent as a route: as it is, the method first unless it starts with one. */
    static String kept(String method, String name) {
        String head = name.length() > MAX_LENGTH ? name.substring(0, MAX_LENGTH + 1) : name; // what fits, and a char to cut
        return fit(startsWithMethod(head) || method.isEmpty() ? head : method + ' ' + head);
    }

    /** Whether a name starts with an HTTP method and a space ({@code GET /users}); looks at its first 8 characters only. */
    private static boolean startsWithMethod(String name) {
        int space = 1;
        while (space < Math.min(name.length(), 8) && name.charAt(space) != ' ') {
            space++;
        }
        return space < Math.min(name.length(), 8) && HTTP_METHODS.contains(name.substring(0, space).toUpperCase(Locale.ROOT));
    }

    /**
     * {@code METHOD /path} with the variable parts of the path replaced: the first of the
     * project's rules that matches, as written; else each segment by {@code {id}} (digits),
     * {@code {uuid}} (one inside), {@code {date}} (ISO 8601), {@code {email}}, {@code {ip}} (v4 or
     * v6), {@code {hex}} ({@code 0x…}, or 12+ hex digits), {@code {token}} (16+ base64url
     * characters mixing letters and digits, or a JWT), and within other segments a number that
     * stands apart from letters or has 4+ digits by {@code {id}} ({@code order-{id}},
     * {@code {id}.json}, but {@code v2}, {@code h264}). Query and fragment are left out, empty
     * segments (a trailing slash) too; a full URL counts by its path, a leading method is the
     * method. Segments are classified percent-decoded and written as sent.
     */
    public static String normalize(String method, String pathOrName, RouteRules rules) {
        // Only the beginning is read, whatever the length (a method and a URL's authority may come before the path).
        String text = pathOrName.length() > 2 * MAX_LENGTH ? pathOrName.substring(0, 2 * MAX_LENGTH) : pathOrName;
        if (startsWithMethod(text)) {
            int space = text.indexOf(' ');
            if (method.isEmpty()) {
                method = text.substring(0, space).toUpperCase(Locale.ROOT);
            }
            text = text.substring(space + 1);
        }
        if (text.indexOf("://") > 0) {
            String path = TransactionFields.pathOf(text);
            text = path.isEmpty() ? "/" : path;
        }
        int end = Math.min(text.length(), MAX_LENGTH + 1); // what lies beyond is cut anyway
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
            }
        }
        boolean truncated = false;
        if (end > MAX_LENGTH) {
            end = MAX_LENGTH;
            truncated = true;
        }
        boolean leadingSlash = end > 0 && text.charAt(0) == '/';
        int[] starts = new int[MAX_SEGMENTS];
        int[] ends = new int[MAX_SEGMENTS];
        int count = 0;
        int i = 0;
        while (i < end) {
            int j = i;
            while (j < end && text.charAt(j) != '/') {
                j++;
            }
            if (j > i) {
                if (count == MAX_SEGMENTS || (truncated && j == end)) {
                    truncated = true; // more segments than kept, or the one the length limit cut
                    break;
                }
                starts[count] = i;
                ends[count] = j;
                count++;
            }
            i = j + 1;
        }
        String prefix = method.isEmpty() ? "" : method + ' ';
        if (leadingSlash && !rules.isEmpty()) {
            String rule = rules.match(text, starts, ends, count, truncated);
            if (rule != null) {
                return fit(prefix + rule);
            }
        }
        StringBuilder route = new StringBuilder(prefix.length() + end + 16).append(prefix);
        for (int s = 0; s < count; s++) {
            if (s > 0 || leadingSlash) {
                route.append('/');
            }
            appendSegment(route, text, starts[s], ends[s]);
        }
        if (truncated) {
            route.append(count > 0 || leadingSlash ? "/" : "").append(REST);
        } else if (count == 0 && leadingSlash) {
            route.append('/');
        }
        return fit(route.toString());
    }

    private static void appendSegment(StringBuilder route, String text, int start, int end) {
        boolean escaped = false;
        for (int i = start; i < end && !escaped; i++) {
            escaped = text.charAt(i) == '%';
        }
        String placeholder = kindOf(escaped ? percentDecoded(text, start, end) : text.substring(start, end));
        if (placeholder != null) {
            route.append(placeholder);
            return;
        }
        int i = start;
        while (i < end) {
            char c = text.charAt(i);
            if (c == '%' && i + 2 < end && isHex(text.charAt(i + 1)) && isHex(text.charAt(i + 2))) {
                route.append(text, i, i + 3); // an escape is written as sent, its digits are no number
                i += 3;
            } else if (isDigit(c)) {
                int j = i;
                while (j < end && isDigit(text.charAt(j))) {
                    j++;
                }
                boolean apart = (i == start || !Character.isLetter(text.charAt(i - 1)))
                        && (j == end || !Character.isLetter(text.charAt(j)));
                if (apart || j - i >= 4) {
                    route.append("{id}");
                } else {
                    route.append(text, i, j);
                }
                i = j;
            } else {
                route.append(c);
                i++;
            }
        }
    }

    /** The placeholder a whole segment stands for, or null when it is none of them. */
    static String kindOf(String segment) {
        int length = segment.length();
        if (length == 0) {
            return null;
        }
        if (allDigits(segment)) {
            return "{id}";
        }
        if (length >= 36 && containsUuid(segment)) {
            return "{uuid}";
        }
        if (isDate(segment)) {
            return "{date}";
        }
        if (isEmail(segment)) {
            return "{email}";
        }
        if (isIpV4(segment) || isIpV6(segment)) {
            return "{ip}";
        }
        if (isHexNumber(segment)) {
            return "{hex}";
        }
        if (isToken(segment)) {
            return "{token}";
        }
        return null;
    }

    private static boolean allDigits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** 8-4-4-4-12 hex digits anywhere in the segment (Relay replaces such a segment whole, too). */
    private static boolean containsUuid(String s) {
        for (int at = 0; at + 36 <= s.length(); at++) {
            boolean uuid = true;
            for (int k = 0; k < 36 && uuid; k++) {
                char c = s.charAt(at + k);
                uuid = (k == 8 || k == 13 || k == 18 || k == 23) ? c == '-' : isHex(c);
            }
            if (uuid) {
                return true;
            }
        }
        return false;
    }

    /** {@code YYYY-MM-DD}, optionally with a time {@code THH:MM[:SS[.fff]]} and an offset {@code Z}/{@code ±HH[:MM]}. */
    private static boolean isDate(String s) {
        int n = s.length();
        if (n < 10 || !digits(s, 0, 4) || s.charAt(4) != '-' || !digits(s, 5, 2) || s.charAt(7) != '-' || !digits(s, 8, 2)) {
            return false;
        }
        if (n == 10) {
            return true;
        }
        char t = s.charAt(10);
        if ((t != 'T' && t != 't' && t != ' ' && t != '_') || n < 16 || !digits(s, 11, 2) || s.charAt(13) != ':' || !digits(s, 14, 2)) {
            return false;
        }
        int i = 16;
        if (i + 3 <= n && s.charAt(i) == ':' && digits(s, i + 1, 2)) {
            i += 3;
            if (i < n && (s.charAt(i) == '.' || s.charAt(i) == ',')) {
                int j = i + 1;
                while (j < n && isDigit(s.charAt(j))) {
                    j++;
                }
                if (j == i + 1) {
                    return false;
                }
                i = j;
            }
        }
        if (i == n) {
            return true;
        }
        char zone = s.charAt(i);
        if (zone == 'Z' || zone == 'z') {
            return i + 1 == n;
        }
        if ((zone == '+' || zone == '-') && digits(s, i + 1, 2)) {
            int rest = n - (i + 3);
            return rest == 0 || (rest == 2 && digits(s, i + 3, 2)) || (rest == 3 && s.charAt(i + 3) == ':' && digits(s, i + 4, 2));
        }
        return false;
    }

    /** {@code local@domain.tld}: one {@code @}, a dotted domain of letters, digits and hyphens, a TLD of 2+ letters. */
    private static boolean isEmail(String s) {
        int at = s.indexOf('@');
        if (at <= 0 || at != s.lastIndexOf('@')) {
            return false;
        }
        for (int i = 0; i < at; i++) {
            char c = s.charAt(i);
            if (!isAsciiLetterOrDigit(c) && ".!#$%&'*+-=^_`{|}~".indexOf(c) < 0) {
                return false;
            }
        }
        int lastDot = s.lastIndexOf('.');
        if (lastDot <= at + 1 || s.length() - lastDot - 1 < 2) {
            return false;
        }
        for (int i = at + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean tld = i > lastDot;
            if (tld ? !isAsciiLetter(c) : !(isAsciiLetterOrDigit(c) || c == '-' || c == '.')) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIpV4(String s) {
        int groups = 0;
        int i = 0;
        int n = s.length();
        while (i < n) {
            int j = i;
            int value = 0;
            while (j < n && j - i < 4 && isDigit(s.charAt(j))) {
                value = value * 10 + (s.charAt(j) - '0');
                j++;
            }
            if (j == i || j - i > 3 || value > 255) {
                return false;
            }
            groups++;
            if (j == n) {
                break;
            }
            if (s.charAt(j) != '.' || groups == 4) {
                return false;
            }
            i = j + 1;
            if (i == n) {
                return false;
            }
        }
        return groups == 4;
    }

    /** Hex groups and colons (two or more), as {@code 2001:db8::1} or {@code ::ffff:10.0.0.1}. */
    private static boolean isIpV6(String s) {
        int n = s.length();
        if (n < 3 || n > 45) {
            return false;
        }
        int colons = 0;
        int digits = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == ':') {
                colons++;
                digits = 0;
            } else if (isHex(c) || c == '.') {
                if (++digits > 15) {
                    return false;
                }
            } else {
                return false;
            }
        }
        return colons >= 2 && (s.contains("::") || colons == 7 || (colons == 6 && s.indexOf('.') > 0));
    }

    /** {@code 0x} and hex digits, or 12+ hex digits with at least one decimal digit (an object id, a hash). */
    private static boolean isHexNumber(String s) {
        int n = s.length();
        if (n > 2 && s.charAt(0) == '0' && (s.charAt(1) == 'x' || s.charAt(1) == 'X')) {
            for (int i = 2; i < n; i++) {
                if (!isHex(s.charAt(i))) {
                    return false;
                }
            }
            return true;
        }
        if (n < 12) {
            return false;
        }
        boolean digit = false;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!isHex(c)) {
                return false;
            }
            digit |= isDigit(c);
        }
        return digit;
    }

    /**
     * A JWT (three base64url parts joined by dots), or 16+ base64url characters ({@code =} padding
     * allowed) in which some part between {@code -} and {@code _} mixes letters and digits: a slug
     * such as {@code how-to-build-2024} is words and numbers, not a token.
     */
    private static boolean isToken(String s) {
        int n = s.length();
        if (n < 16) {
            return false;
        }
        int firstDot = s.indexOf('.');
        if (firstDot >= 0) {
            int secondDot = s.indexOf('.', firstDot + 1);
            return secondDot > firstDot + 4 && s.indexOf('.', secondDot + 1) < 0 && firstDot >= 4 && n - secondDot > 4
                    && base64Url(s, 0, firstDot) && base64Url(s, firstDot + 1, secondDot) && base64Url(s, secondDot + 1, n);
        }
        int end = n;
        while (end > 0 && s.charAt(end - 1) == '=') {
            end--;
        }
        if (!base64Url(s, 0, end)) {
            return false;
        }
        boolean letter = false;
        boolean digit = false;
        for (int i = 0; i <= end; i++) {
            char c = i == end ? '-' : s.charAt(i);
            if (c == '-' || c == '_') {
                if (letter && digit) {
                    return true;
                }
                letter = false;
                digit = false;
            } else {
                letter |= isAsciiLetter(c);
                digit |= isDigit(c);
            }
        }
        return false;
    }

    private static boolean base64Url(String s, int from, int to) {
        if (to <= from) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!isAsciiLetterOrDigit(c) && c != '-' && c != '_') {
                return false;
            }
        }
        return true;
    }

    /** The segment with its {@code %XX} escapes decoded as UTF-8 (malformed bytes as U+FFFD), for classifying only. */
    static String percentDecoded(String text, int start, int end) {
        StringBuilder out = new StringBuilder(end - start);
        ByteArrayOutputStream bytes = null;
        int i = start;
        while (i < end) {
            char c = text.charAt(i);
            if (c == '%' && i + 2 < end && isHex(text.charAt(i + 1)) && isHex(text.charAt(i + 2))) {
                if (bytes == null) {
                    bytes = new ByteArrayOutputStream();
                }
                bytes.write(Character.digit(text.charAt(i + 1), 16) * 16 + Character.digit(text.charAt(i + 2), 16));
                i += 3;
                continue;
            }
            if (bytes != null && bytes.size() > 0) {
                out.append(bytes.toString(StandardCharsets.UTF_8));
                bytes.reset();
            }
            out.append(c);
            i++;
        }
        if (bytes != null && bytes.size() > 0) {
            out.append(bytes.toString(StandardCharsets.UTF_8));
        }
        return out.toString();
    }

    /** At most {@link #MAX_LENGTH} UTF-16 units, a surrogate pair never split; lone surrogates stay, as in every field. */
    static String fit(String route) {
        if (route.length() <= MAX_LENGTH) {
            return route;
        }
        int end = MAX_LENGTH;
        if (Character.isHighSurrogate(route.charAt(end - 1)) && Character.isLowSurrogate(route.charAt(end))) {
            end--;
        }
        return route.substring(0, end);
    }

    private static boolean digits(String s, int from, int count) {
        if (from + count > s.length()) {
            return false;
        }
        for (int i = from; i < from + count; i++) {
            if (!isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isAsciiLetterOrDigit(char c) {
        return isAsciiLetter(c) || isDigit(c);
    }
}
