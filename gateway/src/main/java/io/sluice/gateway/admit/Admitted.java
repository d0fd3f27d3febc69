package io.sluice.gateway.admit;

import java.net.InetAddress;

import io.sluice.projects.DsnKey;
import io.sluice.projects.Project;
import io.sluice.gateway.ingest.IngestRoute;

/**
 * A request taken on: where it goes, whose it is, its share of the in-flight budget and what it
 * takes of its project's quota.
 *
 * @param project      the authenticated project; null for a preflight, and for an envelope whose only
 *                     credential is its {@code dsn} header until its body is read
 * @param dsnKey       the DSN key a Sentry SDK authenticated with, or null
 * @param client       the client the limits count under (behind trusted proxies)
 * @param maxBodyBytes the largest body this request may have as sent (within its reservation)
 * @param quota        what it takes of its project's quota; null while its project is
 */
public record Admitted(IngestRoute route, Project project, InFlightBudget.Reservation reservation, DsnKey dsnKey,
                       InetAddress client, long maxBodyBytes, RequestQuota quota) {
    /** The token to count this request's outcomes under, or null when its project is not known (yet). */
    public String token() {
        return project != null ? project.token() : route.token();
    }

    /** This request, authenticated once its body was read (by the {@code dsn} in an envelope's header). */
    Admitted authenticated(Project by, DsnKey key, RequestQuota taken) {
        return new Admitted(route, by, reservation, key, client, maxBodyBytes, taken);
    }
}
