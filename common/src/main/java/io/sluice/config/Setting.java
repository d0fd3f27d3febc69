package io.sluice.config;

/**
 * One configuration setting: its environment variable, its default and one line for people.
 * Every component declares its settings as constants of this type, in one place, and the
 * README's configuration table is checked against those declarations by a test.
 */
public record Setting(String name, String defaultValue, String description) {
    public Setting {
        if (!name.matches("SLUICE_[A-Z0-9_]+")) {
            throw new IllegalArgumentException("setting names are SLUICE_ environment variables: " + name);
        }
    }
}
