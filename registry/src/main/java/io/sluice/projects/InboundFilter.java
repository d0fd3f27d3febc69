package io.sluice.projects;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Why the gateway filtered an event (Relay's inbound filters): its code names the outcome
 * {@code filtered:<code>}. The built-in ones are switched on and off per project; {@link #ERROR_MESSAGE}
 * and {@link #RELEASE} apply the project's own patterns, when it has any.
 */
public enum InboundFilter {
    /** A transaction of a health check, uptime check or readiness probe (its name matches Relay's health-check globs). */
    HEALTH_CHECK("health_check", true),
    /** An event from a browser or server on the developer's own machine: localhost, 127.0.0.1, ::1, file:// pages. */
    LOCALHOST("localhost", true),
    /** An error raised by a browser extension or injected script, not by the tenant's code. */
    BROWSER_EXTENSIONS("browser_extensions", true),
    /** An event of a search engine's or monitor's crawler (its user agent). */
    WEB_CRAWLERS("web_crawlers", true),
    /** An event from a browser older than the ones Sentry supports (IE before 10, Safari before 6, …). */
    LEGACY_BROWSERS("legacy_browsers", true),
    /** An error whose message matches one of the project's error-message patterns. */
    ERROR_MESSAGE("error_message", false),
    /** An event whose release matches one of the project's release patterns. */
    RELEASE("release", false);

    /** The filters a project switches on and off, in the order they run. */
    public static final List<InboundFilter> SWITCHABLE = Arrays.stream(values()).filter(InboundFilter::switchable).toList();

    private final String code;
    private final boolean switchable;

    InboundFilter(String code, boolean switchable) {
        this.code = code;
        this.switchable = switchable;
    }

    @JsonValue
    public String code() {
        return code;
    }

    /** Whether a project switches it on and off (else it applies the project's patterns). */
    public boolean switchable() {
        return switchable;
    }

    /** @throws IllegalArgumentException when no filter has this code */
    @JsonCreator
    public static InboundFilter ofCode(String code) {
        for (InboundFilter filter : values()) {
            if (filter.code.equals(code == null ? null : code.strip().toLowerCase(Locale.ROOT).replace('-', '_'))) {
                return filter;
            }
        }
        throw new IllegalArgumentException("no inbound filter is called '" + code + "'; there are "
                + String.join(", ", SWITCHABLE.stream().map(InboundFilter::code).toList()));
    }

    @Override
    public String toString() {
        return code;
    }
}
