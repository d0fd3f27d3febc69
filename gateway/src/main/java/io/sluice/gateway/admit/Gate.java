package io.sluice.gateway.admit;

import java.net.InetAddress;

import io.sluice.outcomes.Outcome;
import io.sluice.projects.Project;

/**
 * Who may come in, decided from a request's head before its body is read: its route (404, 405),
 * the client behind any trusted proxies, that client's failed authentications (429), its
 * credentials (401, 403), its project's quota (429), its declared size (413) and its share of
 * the in-flight budget (503). Shared by all connections.
 */
public final class Gate {
    private final Authenticator authenticator;
    private final FailedAuthLimiter failedAuth;
    private final TrustedProxies proxies;
    private final QuotaLimiter quotas;
    private final InFlightBudget budget;
    private final int maxBodyBytes;

    /** @param maxBodyBytes the largest body; what a request that declares no size reserves */
    public Gate(Authenticator authenticator, FailedAuthLimiter failedAuth, TrustedProxies proxies, QuotaLimiter quotas,
                InFlightBudget budget, int maxBodyBytes) {
        this.authenticator = authenticator;
        this.failedAuth = failedAuth;
        this.proxies = proxies;
        this.quotas = quotas;
        this.budget = budget;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** The admitted request, with its declared size reserved, or the {@link Rejection} that refuses it. */
    public Admitted admit(RequestHead head) {
        IngestRoute route = IngestRoute.of(head.method(), head.uri());
        InetAddress client = ClientKey.of(proxies.clientOf(head.peer(), head.forwardedFor()));
        failedAuth.check(client, System.nanoTime());
        Project project;
        try {
            project = authenticator.authenticate(route.token(), head.authorization());
        } catch (Rejection refused) {
            // Only a key that matches nothing is a guess; a 403 (a disabled project, another
            // project's key) comes from a real key and must not lock out its whole address.
            if (refused.outcome() == Outcome.UNAUTHORIZED) {
                failedAuth.failed(client, System.nanoTime());
            }
            throw refused;
        }
        // Every authenticated request takes from its project's quota, whatever becomes of it; one
        // over the quota holds no memory and its body is never read.
        quotas.admit(project, route.endpoint(), System.nanoTime());
        if (head.contentLength() > maxBodyBytes) {
            throw new Rejection(Outcome.BODY_TOO_LARGE, "the request body is larger than " + maxBodyBytes + " bytes");
        }
        long size = head.contentLength() < 0 ? maxBodyBytes : head.contentLength();
        return new Admitted(route, project, budget.reserve(client, size));
    }
}
