package io.sluice.gateway.filter;

import com.fasterxml.jackson.databind.JsonNode;

import io.sluice.events.SentryFields;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.projects.InboundFilter;
import io.sluice.projects.InboundFilters;

/**
 * The one place that decides whether an event is filtered (Relay's inbound filters): read from its
 * parsed JSON, before it takes its project's quota. Each filter reads only the fields it needs; the
 * user-agent filters run only when the event names a user agent. Stateless: shared by every event loop.
 */
public final class EventFilters {
    /**
     * Characters of a user agent read at most: browsers' are under 300, and the patterns' cost grows
     * with the length of the sender's text.
     */
    static final int MAX_USER_AGENT = 512;

    private EventFilters() {
    }

    /** The filter that drops this event, or null when it is kept. */
    public static InboundFilter filteredBy(Endpoint endpoint, JsonNode event, InboundFilters filters) {
        if (endpoint == Endpoint.SESSION) { // only its release says what it is about, in its attributes
            return released(SentryFields.text(event, "/attrs/release"), filters);
        }
        boolean transaction = endpoint == Endpoint.TRANSACTION;
        if (transaction && filters.isOn(InboundFilter.HEALTH_CHECK) && HealthChecks.matches(event)) {
            return InboundFilter.HEALTH_CHECK;
        }
        if (filters.isOn(InboundFilter.LOCALHOST) && Localhost.matches(event, transaction)) {
            return InboundFilter.LOCALHOST;
        }
        if (!transaction && filters.isOn(InboundFilter.BROWSER_EXTENSIONS) && BrowserExtensions.matches(event)) {
            return InboundFilter.BROWSER_EXTENSIONS;
        }
        if (filters.isOn(InboundFilter.WEB_CRAWLERS) || filters.isOn(InboundFilter.LEGACY_BROWSERS)) {
            String userAgent = RequestHeaders.value(event, "User-Agent");
            if (userAgent != null) {
                userAgent = cut(userAgent, MAX_USER_AGENT);
                if (filters.isOn(InboundFilter.WEB_CRAWLERS) && WebCrawlers.matches(userAgent)) {
                    return InboundFilter.WEB_CRAWLERS;
                }
                if (filters.isOn(InboundFilter.LEGACY_BROWSERS) && LegacyBrowsers.matches(userAgent)) {
                    return InboundFilter.LEGACY_BROWSERS;
                }
            }
        }
        if (!transaction && !filters.errorMessages().isEmpty() && ErrorMessages.matches(event, filters.errorMessages())) {
            return InboundFilter.ERROR_MESSAGE;
        }
        return released(SentryFields.text(event, "/release"), filters);
    }

    /** The release filter, or null. */
    private static InboundFilter released(String release, InboundFilters filters) {
        return !filters.releases().isEmpty() && filters.releases().matches(release) ? InboundFilter.RELEASE : null;
    }

    /** The first {@code max} characters of a sender's text: what a filter's patterns read of it. */
    static String cut(String text, int max) {
        return text.length() > max ? text.substring(0, max) : text;
    }
}
