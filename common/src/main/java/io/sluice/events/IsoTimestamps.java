package io.sluice.events;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * The common shape of SDK timestamps, {@code 2026-11-22T06:00:00.123456Z} (fraction and offset
 * optional, offset {@code Z}, {@code ±HH:MM}, {@code ±HHMM} or {@code ±HH}), read without
 * java.time's general parser, which cost more than the rest of validation (measured); and that
 * parser, for anything else.
 */
public final class IsoTimestamps {
    private static final long NOT_THIS_SHAPE = Long.MIN_VALUE;

    private IsoTimestamps() {
    }

    /** Epoch milliseconds, or {@link #NOT_THIS_SHAPE} when the text is not of the common shape or not a valid time. */
    public static long parseMillis(String text) {
        Parsed parsed = parse(text);
        return parsed == null ? NOT_THIS_SHAPE : parsed.epochSecond() * 1000 + parsed.nanos() / 1_000_000;
    }

    /**
     * Epoch seconds with the fraction to the nanosecond (as a double holds it) of any time
     * {@link #parseMillisWithJavaTime} reads, the common shape without java.time; NaN when unreadable.
     */
    public static double epochSeconds(String text) {
        Parsed parsed = parse(text);
        if (parsed != null) {
            return parsed.epochSecond() + parsed.nanos() / 1e9;
        }
        Instant instant = javaTime(withExtendedOffset(text));
        return instant == null ? Double.NaN : instant.getEpochSecond() + instant.getNano() / 1e9;
    }

    /** A time of the common shape: its epoch second and the nanoseconds of its fraction. */
    private record Parsed(long epochSecond, int nanos) {
    }

    /** The time, or null when the text is not of the common shape or not a valid time. */
    private static Parsed parse(String text) {
        int length = text.length();
        if (length < 19 || text.charAt(4) != '-' || text.charAt(7) != '-' || (text.charAt(10) != 'T' && text.charAt(10) != 't')
                || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 59 || day > LocalDate.of(year, month, 1).lengthOfMonth()) {
            return null;
        }
        int position = 19;
        int nanos = 0;
        if (position < length && text.charAt(position) == '.') {
            int fractionStart = ++position;
            while (position < length && isDigit(text.charAt(position))) {
                nanos = nanos * 10 + (text.charAt(position) - '0');
                position++;
                if (position - fractionStart > 9) {
                    return null;
                }
            }
            int fractionDigits = position - fractionStart;
            if (fractionDigits == 0) {
                return null;
            }
            for (int i = fractionDigits; i < 9; i++) {
                nanos *= 10;
            }
        }
        int offsetSeconds;
        if (position == length) {
            offsetSeconds = 0; // no offset: UTC, as the validator reads such times
        } else if (position + 1 == length && (text.charAt(position) == 'Z' || text.charAt(position) == 'z')) {
            offsetSeconds = 0;
        } else if (text.charAt(position) == '+' || text.charAt(position) == '-') {
            // ±HH:MM, or ISO 8601's basic forms ±HHMM and ±HH
            int offsetHours = digits(text, position + 1, Math.min(2, length - position - 1));
            int offsetMinutes;
            if (position + 6 == length && text.charAt(position + 3) == ':') {
                offsetMinutes = digits(text, position + 4, 2);
            } else if (position + 5 == length) {
                offsetMinutes = digits(text, position + 3, 2);
            } else if (position + 3 == length) {
                offsetMinutes = 0;
            } else {
                return null;
            }
            if (offsetHours < 0 || offsetMinutes < 0 || offsetMinutes > 59 || offsetHours * 60 + offsetMinutes > 18 * 60) {
                return null;
            }
            offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (text.charAt(position) == '-' ? -1 : 1);
        } else {
            return null;
        }
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        long epochSecond = epochDay * 86_400 + hour * 3600L + minute * 60L + second - offsetSeconds;
        return new Parsed(epochSecond, nanos);
    }

    /**
     * Any ISO 8601 date-time java.time reads, with an offset (extended {@code ±HH:MM} or basic
     * {@code ±HHMM}, {@code ±HH}) or without (then UTC); null when unreadable.
     *
     * @throws ArithmeticException when the time is readable but beyond what epoch milliseconds hold
     *                             (such as year +999999999)
     */
    public static Long parseMillisWithJavaTime(String text) {
        Instant instant = javaTime(withExtendedOffset(text));
        return instant == null ? null : instant.toEpochMilli();
    }

    /** What java.time reads of ISO 8601 text with an extended offset or none (then UTC); null when unreadable. */
    private static Instant javaTime(String extended) {
        try {
            return OffsetDateTime.parse(extended).toInstant();
        } catch (DateTimeParseException withoutOffset) {
            try {
                return LocalDateTime.parse(extended).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                return null;
            }
        }
    }

    /** The text with a basic offset ({@code +0100}, {@code +01}) written as java.time reads it ({@code +01:00}). */
    private static String withExtendedOffset(String text) {
        int time = Math.max(text.indexOf('T'), text.indexOf('t'));
        int sign = Math.max(text.lastIndexOf('+'), text.lastIndexOf('-'));
        if (time < 0 || sign < time) {
            return text;
        }
        String offset = text.substring(sign + 1);
        if (offset.length() == 4 && digits(offset, 0, 4) >= 0) {
            return text.substring(0, sign + 3) + ':' + offset.substring(2);
        }
        if (offset.length() == 2 && digits(offset, 0, 2) >= 0) {
            return text + ":00";
        }
        return text;
    }

    public static boolean isOfThisShape(long parsed) {
        return parsed != NOT_THIS_SHAPE;
    }

    /** The number in {@code count} ASCII digits at {@code start}, or -1. */
    private static int digits(String text, int start, int count) {
        int value = 0;
        for (int i = start; i < start + count; i++) {
            char c = text.charAt(i);
            if (!isDigit(c)) {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
