package io.sluice.config;

import java.time.Duration;
import java.util.Map;

/**
 * Reads declared {@link Setting}s from a source of values (the environment, or a map in tests),
 * falling back to each setting's default. Values that do not parse fail at startup, naming
 * the setting.
 */
public final class Settings {
    private final Map<String, String> values;

    public Settings(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    public static Settings fromEnvironment() {
        return new Settings(System.getenv());
    }

    /** These values on top of this source (for flags and tests). */
    public Settings with(Map<String, String> overrides) {
        var merged = new java.util.HashMap<>(values);
        merged.putAll(overrides);
        return new Settings(merged);
    }

    public String get(Setting setting) {
        String value = values.get(setting.name());
        return value == null || value.isBlank() ? setting.defaultValue() : value.strip();
    }

    /**
     * Every non-blank value whose name starts with {@code prefix}, by the rest of its name: for
     * families of settings named by what they set, such as {@code SLUICE_KAFKA_PROPERTY_*}.
     */
    public java.util.SortedMap<String, String> withPrefix(String prefix) {
        var found = new java.util.TreeMap<String, String>();
        values.forEach((name, value) -> {
            if (name.startsWith(prefix) && name.length() > prefix.length() && value != null && !value.isBlank()) {
                found.put(name.substring(prefix.length()), value.strip());
            }
        });
        return found;
    }

    public int getInt(Setting setting) {
        String value = get(setting);
        try {
            return inRange(setting, value, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            throw invalid(setting, value, "a whole number");
        }
    }

    public long getLong(Setting setting) {
        String value = get(setting);
        try {
            return inRange(setting, value, Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw invalid(setting, value, "a whole number");
        }
    }

    public double getDouble(Setting setting) {
        String value = get(setting);
        double number;
        try {
            number = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw invalid(setting, value, "a number");
        }
        if (!Double.isFinite(number)) {
            throw invalid(setting, value, "a finite number");
        }
        return inRange(setting, value, number);
    }

    private static <N extends Number> N inRange(Setting setting, String value, N number) {
        if (!setting.inRange(number.doubleValue())) {
            throw invalid(setting, value, setting.range());
        }
        return number;
    }

    /** Durations are written as a number and a unit: {@code 500ms}, {@code 30s}, {@code 15m}, {@code 24h}, {@code 7d}. */
    /** {@code true} or {@code false}, in any case; anything else is refused, naming the setting. */
    public boolean getBoolean(Setting setting) {
        String value = get(setting);
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw invalid(setting, value, "true or false");
    }

    public Duration getDuration(Setting setting) {
        String value = get(setting);
        try {
            return parseDuration(value);
        } catch (IllegalArgumentException e) {
            throw invalid(setting, value, "a duration such as 500ms, 30s, 15m, 24h or 7d");
        }
    }

    public static Duration parseDuration(String text) {
        var match = java.util.regex.Pattern.compile("(\\d+)(ms|s|m|h|d)").matcher(text.strip());
        if (!match.matches()) {
            throw new IllegalArgumentException("not a duration: " + text);
        }
        long amount = Long.parseLong(match.group(1));
        return switch (match.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }

    private static IllegalArgumentException invalid(Setting setting, String value, String expected) {
        return new IllegalArgumentException(setting.name() + "=" + value + " is not " + expected
                + " (" + setting.description() + ")");
    }
}
