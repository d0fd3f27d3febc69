package io.sluice.gateway.filter;

import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import io.sluice.events.SentryFields;
import io.sluice.events.TransactionFields;

/**
 * An event from the developer's own machine (Relay's localhost filter): its user's address is
 * 127.0.0.1 or ::1, its request URL is a {@code file:} page or at localhost ({@code *.localhost}
 * included), 127.0.0.1 or [::1]; without a URL, its {@code Host} or {@code X-Forwarded-Host} header
 * names such a host, or its {@code X-Forwarded-For} such an address.
 */
final class Localhost {
    private Localhost() {
    }

    static boolean matches(JsonNode event, boolean transaction) {
        if (isLocalAddress(SentryFields.text(event, "/user/ip_address"))) {
            return true;
        }
        String url = transaction ? TransactionFields.url(event) : SentryFields.text(event, "/request/url");
        if (!url.isEmpty()) {
            return url.regionMatches(true, 0, "file:", 0, 5) || isLocalHost(hostOf(url));
        }
        for (String header : new String[] {"Host", "X-Forwarded-Host"}) {
            String host = RequestHeaders.value(event, header);
            if (host != null && isLocalHost(withoutPort(host.strip()))) {
                return true;
            }
        }
        String forwardedFor = RequestHeaders.value(event, "X-Forwarded-For");
        return forwardedFor != null && isLocalAddress(forwardedFor.strip());
    }

    private static boolean isLocalAddress(String address) {
        return address.equals("127.0.0.1") || address.equals("::1");
    }

    private static boolean isLocalHost(String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        return lower.equals("localhost") || lower.endsWith(".localhost") || lower.equals("127.0.0.1") || lower.equals("[::1]");
    }

    /** The host of {@code scheme://[user@]host[:port]/…}; "" when it has no {@code //}. */
    private static String hostOf(String url) {
        int start = url.indexOf("//");
        if (start < 0) {
            return "";
        }
        start += 2;
        int end = start;
        while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
            end++;
        }
        String authority = url.substring(start, end);
        return withoutPort(authority.substring(authority.lastIndexOf('@') + 1));
    }

    private static String withoutPort(String hostAndPort) {
        int close = hostAndPort.lastIndexOf(']');
        int colon = hostAndPort.lastIndexOf(':');
        return colon > close ? hostAndPort.substring(0, colon) : hostAndPort;
    }
}
