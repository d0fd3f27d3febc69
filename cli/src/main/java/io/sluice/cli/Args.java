package io.sluice.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Command-line words: positional ones, {@code --option value} and {@code --flag}. */
public record Args(List<String> positional, Map<String, String> options, Set<String> flags) {

    public static Args parse(String[] words, Set<String> knownFlags) {
        List<String> positional = new ArrayList<>();
        Map<String, String> options = new HashMap<>();
        java.util.HashSet<String> flags = new java.util.HashSet<>();
        for (int i = 0; i < words.length; i++) {
            String word = words[i];
            if (!word.startsWith("--")) {
                positional.add(word);
            } else if (word.contains("=")) {
                options.put(word.substring(2, word.indexOf('=')), word.substring(word.indexOf('=') + 1));
            } else if (knownFlags.contains(word.substring(2))) {
                flags.add(word.substring(2));
            } else if (i + 1 < words.length) {
                options.put(word.substring(2), words[++i]);
            } else {
                throw new UsageException(word + " needs a value");
            }
        }
        return new Args(List.copyOf(positional), Map.copyOf(options), Set.copyOf(flags));
    }

    public String positional(int index) {
        return index < positional.size() ? positional.get(index) : null;
    }

    public String option(String name, String fallback) {
        return options.getOrDefault(name, fallback);
    }

    public String required(String name) {
        String value = options.get(name);
        if (value == null || value.isBlank()) {
            throw new UsageException("--" + name + " is required");
        }
        return value;
    }

    public boolean flag(String name) {
        return flags.contains(name);
    }

    /** A mistake in how the command was called: exit code 2 and the usage. */
    public static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }
}
