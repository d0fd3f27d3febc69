package io.sluice.config;

/**
 * One configuration setting: its environment variable, its default and one line for people, and
 * for a number the range it must lie in (checked when it is read: a value out of range fails at
 * startup, naming the setting). Every component declares its settings as constants of this type,
 * in one place, and the README's configuration table is checked against those declarations by a test.
 */
public record Setting(String name, String defaultValue, String description, double min, double max) {
    public Setting {
        if (!name.matches("SLUICE_[A-Z0-9_]+")) {
            throw new IllegalArgumentException("setting names are SLUICE_ environment variables: " + name);
        }
    }

    /** A setting with no range (text, a duration, or any number). */
    public Setting(String name, String defaultValue, String description) {
        this(name, defaultValue, description, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
    }

    /** This setting, whose number must lie between {@code min} and {@code max}, both included. */
    public Setting between(double min, double max) {
        return new Setting(name, defaultValue, description, min, max);
    }

    /** This setting, whose number must be {@code min} or more. */
    public Setting atLeast(double min) {
        return between(min, Double.POSITIVE_INFINITY);
    }

    boolean inRange(double value) {
        return value >= min && value <= max; // false for NaN
    }

    /** The range in words ("at least 1", "between 0 and 65535"); empty for a setting with none. */
    public String range() {
        if (min == Double.NEGATIVE_INFINITY && max == Double.POSITIVE_INFINITY) {
            return "";
        }
        if (max == Double.POSITIVE_INFINITY) {
            return "at least " + number(min);
        }
        return "between " + number(min) + " and " + number(max);
    }

    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }
}
