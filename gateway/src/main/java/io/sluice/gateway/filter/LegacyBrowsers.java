package io.sluice.gateway.filter;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A user agent of a browser older than Sentry's default minimum (Relay's default legacy-browser
 * filter): Internet Explorer before 10 (IE Mobile as IE), Safari before 6, Opera before 15, Opera
 * Mini before 8, the Android browser before 4. Chrome, Firefox and Edge of any version are kept,
 * as is any user agent not read as one of these. A family is looked for as plain text first; its
 * version is read by a pattern only when the text is there.
 */
final class LegacyBrowsers {
    private static final Pattern OPERA_MINI = Pattern.compile("Opera Mini/(\\d+)");
    /** Opera 15 and later (Chromium) say OPR/; Presto's say Opera/9.80 and their version in Version/. */
    private static final Pattern OPERA = Pattern.compile("OPR/(\\d+)|Opera/9\\.80.*?Version/(\\d+)|Opera[ /](\\d+)");
    private static final Pattern IE = Pattern.compile("MSIE (\\d+)|Trident/\\d+.*?rv:(\\d+)");
    private static final Pattern ANDROID = Pattern.compile("Android (\\d+)");
    private static final Pattern SAFARI = Pattern.compile("Version/(\\d+)[^ ]* (?:Mobile/\\S+ )?Safari/");

    private LegacyBrowsers() {
    }

    static boolean matches(String userAgent) {
        if (userAgent.contains("Opera Mini/")) {
            return below(OPERA_MINI, userAgent, 8);
        }
        if (userAgent.contains("OPR/") || userAgent.contains("Opera")) {
            return below(OPERA, userAgent, 15);
        }
        if (userAgent.contains("MSIE ") || userAgent.contains("Trident/")) {
            return below(IE, userAgent, 10);
        }
        if (userAgent.contains("Chrome/") || userAgent.contains("CriOS/") || userAgent.contains("Firefox/")
                || userAgent.contains("FxiOS/") || userAgent.contains("Edge/") || userAgent.contains("Edg/")) {
            return false;
        }
        if (userAgent.contains("Android ")) {
            return below(ANDROID, userAgent, 4);
        }
        return userAgent.contains("Safari/") && below(SAFARI, userAgent, 6);
    }

    /** Whether the first group that matched is a version below {@code minimum}; false when the pattern does not match. */
    private static boolean below(Pattern pattern, String userAgent, int minimum) {
        Matcher matcher = pattern.matcher(userAgent);
        if (!matcher.find()) {
            return false;
        }
        for (int group = 1; group <= matcher.groupCount(); group++) {
            String digits = matcher.group(group);
            if (digits != null) {
                return digits.length() <= 6 && Integer.parseInt(digits) < minimum;
            }
        }
        return false;
    }
}
