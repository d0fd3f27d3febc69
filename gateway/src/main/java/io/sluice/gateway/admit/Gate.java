package io.sluice.gateway.admit;

import java.net.InetAddress;

import io.sluice.outcomes.Outcome;
import io.sluice.projects.Project;

/**
 * Who may come in, decided from a request's head before its body is read: its route (404, 405),
 * the client behind any trusted proxies, that client's failed authentications (429), its
 * credentials (401, 403) and its share of the in-flight budget (503). Shared by all connections.
 */
public final class Gate {
    private final Authenticator authenticator;
    private final FailedAuthLimiter failedAuth;
    private final TrustedProxies proxies;
    private final InFlightBudget budget;
    private final int maxBodyBytes;

    /** @param maxBodyBytes what a request that declares no size reserves, and the most any reserves up front */
    public Gate(Authenticator authenticator, FailedAuthLimiter failedAuth, TrustedProxies proxies, InFlightBudget budget,
                int maxBodyBytes) {
        this.authenticator = authenticator;
        this.failedAuth = failedAuth;
        this.proxies = proxies;
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
        long size = head.contentLength() < 0 ? maxBodyBytes : Math.min(head.contentLength(), maxBodyBytes);
        return new Admitted(route, project, budget.reserve(client, size));
    }
}
