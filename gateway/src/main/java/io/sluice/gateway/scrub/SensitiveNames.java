package io.sluice.gateway.scrub;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.sluice.projects.DataScrubbing;

/**
 * Which field names hold secrets: Relay's default {@code @password} rule (its key pattern
 * {@code password|secret|passwd|api_key|apikey|auth|credentials|mysql_pwd|privatekey|private_key|set-cookie|token}),
 * plus {@code cookie} and {@code session}, plus a project's own names. A name matches when one of
 * them occurs anywhere in it, ignoring case, {@code -} and {@code _} (so {@code X-Api-Key},
 * {@code access_token} and {@code Set-Cookie} match, as {@code Authorization} does through {@code auth}),
 * and after percent-decoding: a server reads {@code pass%77ord=…} in a query string or form body as
 * {@code password} (Relay matches decoded names too).
 */
final class SensitiveNames {
    static final String DEFAULT_RULE = "@password:filter";
    static final String PROJECT_RULE = "project:sensitive_fields";

    /** Relay's key pattern, normalized (no {@code _} or {@code -}), with {@code cookie} and {@code session} added. */
    static final List<String> DEFAULTS = List.of("password", "secret", "passwd", "apikey", "auth", "credentials",
            "mysqlpwd", "privatekey", "token", "cookie", "session");

    /** The shortest default name's length: most field names are shorter, and none of those can match. */
    private static final int SHORTEST_DEFAULT = DEFAULTS.stream().mapToInt(String::length).min().orElseThrow();

    static final int REMEMBERED_NAMES = 10_000;
    private static final Map<String, Boolean> DEFAULT_ANSWERS = new ConcurrentHashMap<>();

    private final List<String> extra;
    private final int shortest;

    SensitiveNames(DataScrubbing scrubbing) {
        this.extra = scrubbing.sensitiveFields().stream().map(SensitiveNames::normalize).filter(name -> !name.isEmpty()).toList();
        this.shortest = Math.min(SHORTEST_DEFAULT, extra.stream().mapToInt(String::length).min().orElse(SHORTEST_DEFAULT));
    }

    /** The rule that makes this name sensitive, or null when it is not. */
    String ruleFor(String name) {
        if (name.indexOf('%') >= 0) {
            name = PercentEncoding.decoded(name);
        }
        if (name.length() < shortest) {
            return null;
        }
        if (isDefault(name)) {
            return DEFAULT_RULE;
        }
        if (extra.isEmpty()) {
            return null;
        }
        String normalized = normalize(name);
        for (String sensitive : extra) {
            if (normalized.contains(sensitive)) {
                return PROJECT_RULE;
            }
        }
        return null;
    }

    /**
     * Whether a default name occurs in this one. Remembered for short names: events repeat the same
     * few hundred field names (Jackson hands out one String per name, its hash computed once), and
     * the answer is then one lookup instead of eleven searches. Bounded: at
     * {@link #REMEMBERED_NAMES} names it forgets them all and starts again.
     */
    private static boolean isDefault(String name) {
        Boolean known = DEFAULT_ANSWERS.get(name);
        if (known != null) {
            return known;
        }
        String normalized = normalize(name);
        boolean sensitive = false;
        for (String sensitiveName : DEFAULTS) {
            if (normalized.contains(sensitiveName)) {
                sensitive = true;
                break;
            }
        }
        if (name.length() <= 64) {
            if (DEFAULT_ANSWERS.size() >= REMEMBERED_NAMES) {
                // Full (many distinct names, as hostile events send): start again, so that the
                // names ordinary events repeat are soon remembered again.
                DEFAULT_ANSWERS.clear();
            }
            DEFAULT_ANSWERS.put(name, sensitive);
        }
        return sensitive;
    }

    static String normalize(String name) {
        if (name.indexOf('-') < 0 && name.indexOf('_') < 0) {
            return name.toLowerCase(Locale.ROOT);
        }
        StringBuilder kept = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c != '-' && c != '_') {
                kept.append(c);
            }
        }
        return kept.toString().toLowerCase(Locale.ROOT);
    }
}
