package io.sluice.gateway.filter;

import java.util.List;
import java.util.Locale;

/**
 * A user agent of a known crawler, link previewer or uptime monitor (Relay's list, ignoring case);
 * Slack's "Slackbot 1.x" is a person's link. Searched as plain text ({@link String#indexOf}, not a
 * regular expression tried at every position): it runs for every event that names a user agent.
 */
final class WebCrawlers {
    private static final List<String> NAMES = List.of("mediapartners-google", "adsbot-google", "googlebot", "feedfetcher-google",
            "bingbot", "bingpreview", "baiduspider", "slurp", "sogou", "facebook", "ia_archiver", "slack", "calypso appcrawler",
            "pingdom", "lyticsbot", "aws security scanner", "hubspot crawler", "bytespider", "better uptime");
    /** Generic names, which count only before one of {@link #ENDS} ("bot/", "bots;", "spider)"). */
    private static final List<String> GENERIC = List.of("bot", "bots", "spider");
    private static final String ENDS = "/ \t\n\r\f);";

    private WebCrawlers() {
    }

    static boolean matches(String userAgent) {
        String lower = userAgent.toLowerCase(Locale.ROOT);
        return (NAMES.stream().anyMatch(lower::contains) || GENERIC.stream().anyMatch(name -> endsAName(lower, name)))
                && !isSlackbotLink(lower);
    }

    private static boolean endsAName(String lower, String name) {
        for (int at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + 1)) {
            int next = at + name.length();
            if (next < lower.length() && ENDS.indexOf(lower.charAt(next)) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** "Slackbot 1.0": Slack fetching a link a person posted. */
    private static boolean isSlackbotLink(String lower) {
        for (int at = lower.indexOf("slackbot"); at >= 0; at = lower.indexOf("slackbot", at + 1)) {
            int version = at + "slackbot".length();
            while (version < lower.length() && Character.isWhitespace(lower.charAt(version))) {
                version++;
            }
            if (version > at + "slackbot".length() && lower.startsWith("1.", version) && version + 2 < lower.length()
                    && Character.isDigit(lower.charAt(version + 2))) {
                return true;
            }
        }
        return false;
    }
}
