package io.sluice.projects;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Which events of a project the gateway drops before they take its quota (answered as accepted,
 * counted as {@code filtered:<filter>}, never stored). Records written before filters existed read
 * as {@link #DEFAULT}.
 *
 * @param on            the built-in filters switched on ({@link InboundFilter#switchable})
 * @param errorMessages globs matched against an error's message and each exception's {@code type: value}
 * @param releases      globs matched against an event's release
 */
public record InboundFilters(Set<InboundFilter> on, Globs errorMessages, Globs releases) {
    /**
     * Sentry's defaults for a new project: health checks, browser extensions, web crawlers and legacy
     * browsers are never the tenant's own traffic or errors. Localhost stays off: a server behind a
     * local reverse proxy sees its requests' URLs at localhost, and those are real traffic.
     */
    public static final Set<InboundFilter> ON_BY_DEFAULT = inOrder(EnumSet.of(InboundFilter.HEALTH_CHECK,
            InboundFilter.BROWSER_EXTENSIONS, InboundFilter.WEB_CRAWLERS, InboundFilter.LEGACY_BROWSERS));
    public static final InboundFilters DEFAULT = new InboundFilters(ON_BY_DEFAULT, Globs.NONE, Globs.NONE);

    /** @throws IllegalArgumentException when a filter in {@code on} is not a switchable one */
    public InboundFilters {
        on = on == null ? ON_BY_DEFAULT : inOrder(on);
        errorMessages = errorMessages == null ? Globs.NONE : errorMessages;
        releases = releases == null ? Globs.NONE : releases;
        for (InboundFilter filter : on) {
            if (!filter.switchable()) {
                throw new IllegalArgumentException("'" + filter + "' is not switched on or off: it applies the project's patterns");
            }
        }
    }

    /** In the filters' order (as they run and are shown), unmodifiable. */
    private static Set<InboundFilter> inOrder(Collection<InboundFilter> filters) {
        EnumSet<InboundFilter> ordered = EnumSet.noneOf(InboundFilter.class);
        ordered.addAll(filters);
        return Collections.unmodifiableSet(ordered);
    }

    public boolean isOn(InboundFilter filter) {
        return on.contains(filter);
    }

    /** These filters switched on and {@code off} switched off (both may be empty), the rest as they are. */
    public InboundFilters switched(Collection<InboundFilter> turnOn, Collection<InboundFilter> turnOff) {
        EnumSet<InboundFilter> switched = EnumSet.noneOf(InboundFilter.class);
        switched.addAll(on);
        switched.addAll(turnOn);
        switched.removeAll(turnOff);
        return new InboundFilters(switched, errorMessages, releases);
    }
}
