package io.sluice.events;

import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Formats a Sentry log entry ({@code logentry} or {@code message} as an object) whose
 * {@code message} has parameters, as Sentry does (Relay's {@code normalize_logentry}): a message
 * with {@code %} is Python-style ({@code %s}, {@code %d}, {@code %(name)s}, {@code %%}, with flags,
 * width and precision), else one with <code>{</code> is curly ({@code {}} in turn, {@code {0}} by
 * index, {@code {name}} by key). A message that does not fit its parameters (too few, an unknown
 * conversion) is not formatted: null, and the raw message is kept. The result is cut at
 * {@link #MAX_LENGTH}: however many and long the parameters, formatting is bounded.
 */
final class LogEntryFormat {
    /** Relay's limit of a message, in characters. */
    static final int MAX_LENGTH = 8192;

    private LogEntryFormat() {
    }

    /** The message formatted with {@code params} (an array, or an object for named parameters); null when it cannot be. */
    static String format(String message, JsonNode params) {
        if (params == null || !(params.isArray() || params.isObject())) {
            return null;
        }
        if (message.indexOf('%') >= 0) {
            return python(message, params);
        }
        if (message.indexOf('{') >= 0) {
            return curly(message, params);
        }
        return null;
    }

    private static String python(String message, JsonNode params) {
        StringBuilder out = new StringBuilder(Math.min(message.length() + 32, MAX_LENGTH));
        int next = 0;
        int n = message.length();
        int i = 0;
        while (i < n && out.length() < MAX_LENGTH) {
            char c = message.charAt(i);
            if (c != '%') {
                out.append(c);
                i++;
                continue;
            }
            if (++i >= n) {
                return null; // a lone % at the end
            }
            if (message.charAt(i) == '%') {
                out.append('%');
                i++;
                continue;
            }
            JsonNode value;
            if (message.charAt(i) == '(') {
                int close = message.indexOf(')', i);
                if (close < 0 || !params.isObject()) {
                    return null;
                }
                value = params.get(message.substring(i + 1, close));
                i = close + 1;
            } else {
                value = params.isArray() ? params.get(next++) : null;
            }
            if (value == null) {
                return null; // fewer parameters than the message asks for
            }
            boolean left = false;
            boolean zero = false;
            while (i < n && "-+ 0#".indexOf(message.charAt(i)) >= 0) {
                left |= message.charAt(i) == '-';
                zero |= message.charAt(i) == '0';
                i++;
            }
            int width = 0;
            while (i < n && message.charAt(i) >= '0' && message.charAt(i) <= '9') {
                width = Math.min(MAX_LENGTH, width * 10 + (message.charAt(i++) - '0'));
            }
            int precision = -1;
            if (i < n && message.charAt(i) == '.') {
                precision = 0;
                i++;
                while (i < n && message.charAt(i) >= '0' && message.charAt(i) <= '9') {
                    precision = Math.min(100, precision * 10 + (message.charAt(i++) - '0'));
                }
            }
            if (i >= n) {
                return null;
            }
            String text = convert(message.charAt(i++), value, precision);
            if (text == null) {
                return null;
            }
            pad(out, text, Math.min(width, MAX_LENGTH), left, zero && !left && !(text.startsWith("-")));
        }
        return cut(out);
    }

    /** One value by its conversion; null for a conversion this does not know, or a number conversion of a non-number. */
    private static String convert(char conversion, JsonNode value, int precision) {
        switch (conversion) {
            case 's', 'r', 'a' -> {
                String text = textOf(value);
                return precision >= 0 && precision < text.length() ? text.substring(0, precision) : text;
            }
            case 'd', 'i', 'u' -> {
                return value.isNumber() ? Long.toString(value.longValue()) : null;
            }
            case 'f', 'F', 'e', 'E', 'g', 'G' -> {
                if (!value.isNumber()) {
                    return null;
                }
                String spec = "%." + (precision < 0 ? 6 : precision) + conversion;
                return String.format(Locale.ROOT, conversion == 'F' ? spec.replace('F', 'f') : spec, value.doubleValue());
            }
            case 'x', 'X', 'o' -> {
                if (!value.isIntegralNumber()) {
                    return null;
                }
                String digits = conversion == 'o' ? Long.toOctalString(value.longValue()) : Long.toHexString(value.longValue());
                return conversion == 'X' ? digits.toUpperCase(Locale.ROOT) : digits;
            }
            default -> {
                return null;
            }
        }
    }

    private static String curly(String message, JsonNode params) {
        StringBuilder out = new StringBuilder(Math.min(message.length() + 32, MAX_LENGTH));
        int next = 0;
        int n = message.length();
        int i = 0;
        while (i < n && out.length() < MAX_LENGTH) {
            char c = message.charAt(i);
            if (c != '{') {
                out.append(c);
                i++;
                continue;
            }
            int close = message.indexOf('}', i);
            if (close < 0) {
                return null;
            }
            String key = message.substring(i + 1, close);
            JsonNode value;
            if (key.isEmpty()) {
                value = params.isArray() ? params.get(next++) : null;
            } else if (isIndex(key)) {
                value = params.isArray() ? params.get(Integer.parseInt(key)) : null;
            } else {
                value = params.isObject() ? params.get(key) : null;
            }
            if (value == null) {
                return null;
            }
            appendBounded(out, textOf(value));
            i = close + 1;
        }
        return cut(out);
    }

    private static boolean isIndex(String key) {
        if (key.length() > 6) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            if (key.charAt(i) < '0' || key.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** A parameter as text: a string as it is, anything else as its JSON ({@code null}, {@code 3}, {@code true}, {@code [1]}). */
    private static String textOf(JsonNode value) {
        if (value.isTextual()) {
            return value.textValue();
        }
        String json = value.toString();
        return json.length() > MAX_LENGTH ? json.substring(0, MAX_LENGTH) : json;
    }

    private static void pad(StringBuilder out, String text, int width, boolean left, boolean zero) {
        int room = MAX_LENGTH - out.length();
        int padding = Math.min(Math.max(0, width - text.length()), room);
        if (!left) {
            for (int i = 0; i < padding; i++) {
                out.append(zero ? '0' : ' ');
            }
        }
        appendBounded(out, text);
        if (left) {
            for (int i = 0; i < padding && out.length() < MAX_LENGTH; i++) {
                out.append(' ');
            }
        }
    }

    /** As much of {@code text} as fits {@link #MAX_LENGTH} and one character more (so {@link #cut} sees a pair it would split). */
    private static void appendBounded(StringBuilder out, String text) {
        out.append(text, 0, Math.min(text.length(), Math.max(0, MAX_LENGTH + 1 - out.length())));
    }

    /** At most {@link #MAX_LENGTH} characters, a surrogate pair never split. */
    private static String cut(StringBuilder out) {
        if (out.length() <= MAX_LENGTH) {
            return out.toString();
        }
        int end = MAX_LENGTH;
        if (Character.isHighSurrogate(out.charAt(end - 1)) && Character.isLowSurrogate(out.charAt(end))) {
            end--;
        }
        return out.substring(0, end);
    }
}
