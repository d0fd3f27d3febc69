package io.sluice.gateway.admit;

import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sluice.outcomes.Outcome;
import io.sluice.projects.Project;
import io.sluice.gateway.ingest.IngestRoute;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.ingest.BodySize;

/**
 * Who may come in, decided from a request's head before its body is read: its route (404, 405),
 * the client behind any trusted proxies, that client's failed authentications (429), its
 * credentials (401, 403), its project's quota (429), its declared size (413) and whether that
 * fits its share of the in-flight budget now (503). An admitted request holds nothing yet: its
 * body's bytes are taken from the budget as they arrive, so a head announcing a body it never
 * sends takes nothing from anyone. Shared by all connections.
 *
 * <p>The Sentry endpoints take a DSN key (from X-Sentry-Auth, Authorization: Sentry or the
 * query) and a browser origin the key allows. An envelope whose only credential is the
 * {@code dsn} in its own header can be checked only once its body is read: such requests hold
 * a separate, small budget ({@code unauthenticated}), so strangers can never take the tenants'.
 */
public final class Gate {
    private static final Logger LOG = LoggerFactory.getLogger(Gate.class);
    private final Authenticator authenticator;
    private final FailedAuthLimiter failedAuth;
    private final TrustedProxies proxies;
    private final QuotaLimiter quotas;
    private final InFlightBudget budget;
    private final InFlightBudget unauthenticated;
    private final int maxBodyBytes;
    private final int maxEnvelopeBytes;
    private final int maxOtlpBytes;
    private final AtomicBoolean forwardingIgnoredLogged = new AtomicBoolean();

    /**
     * @param maxBodyBytes     the largest v1 body (and store body)
     * @param unauthenticated  the budget of envelopes authenticated only by their {@code dsn} header
     * @param maxEnvelopeBytes the largest envelope as sent
     * @param maxOtlpBytes     the largest OTLP export as sent
     */
    public Gate(Authenticator authenticator, FailedAuthLimiter failedAuth, TrustedProxies proxies, QuotaLimiter quotas,
                InFlightBudget budget, InFlightBudget unauthenticated, int maxBodyBytes, int maxEnvelopeBytes, int maxOtlpBytes) {
        this.authenticator = authenticator;
        this.failedAuth = failedAuth;
        this.proxies = proxies;
        this.quotas = quotas;
        this.budget = budget;
        this.unauthenticated = unauthenticated;
        this.maxBodyBytes = maxBodyBytes;
        this.maxEnvelopeBytes = maxEnvelopeBytes;
        this.maxOtlpBytes = maxOtlpBytes;
    }

    /** OTLP exports held to the v1 body limit. */
    public Gate(Authenticator authenticator, FailedAuthLimiter failedAuth, TrustedProxies proxies, QuotaLimiter quotas,
                InFlightBudget budget, InFlightBudget unauthenticated, int maxBodyBytes, int maxEnvelopeBytes) {
        this(authenticator, failedAuth, proxies, quotas, budget, unauthenticated, maxBodyBytes, maxEnvelopeBytes, maxBodyBytes);
    }

    /** The largest body any route takes: the HTTP layer's bound, each request is bounded by its own. */
    public int largestBody() {
        int largest = 0;
        for (BodySize size : BodySize.values()) {
            largest = Math.max(largest, maxBodyBytes(size));
        }
        return largest;
    }

    /**
     * The admitted request, with its reservation (empty until its body arrives), or the {@link Rejection} that refuses it.
     *
     * @param path the route of the request's path, as parsed from its head ({@link IngestRoute#ofPath}); null when none
     */
    public Admitted admit(IngestRoute path, RequestHead head) {
        if (path == null) {
            throw IngestRoute.notFound();
        }
        IngestRoute route = path.forMethod(head.method());
        InetAddress client = ClientKey.of(proxies.clientOf(head.peer(), head.forwardedFor()));
        if (!forwardingIgnoredLogged.get() && proxies.ignoresForwarding(head.peer(), head.forwardedFor())
                && forwardingIgnoredLogged.compareAndSet(false, true)) {
            LOG.warn("requests from {} carry X-Forwarded-For, which is ignored: {} is not in SLUICE_GATEWAY_TRUSTED_PROXIES. "
                    + "If it is a load balancer or ingress, every client behind it counts as one client for failed "
                    + "authentications and in-flight shares (one client's wrong keys can get them all 429): add its "
                    + "CIDR block (logged once)", head.peer().getHostAddress(), head.peer().getHostAddress());
        }
        if (route.preflight()) {
            return new Admitted(route, null, budget.expect(client, null, 0), null, client, 0, null);
        }
        failedAuth.check(client, System.nanoTime());
        int max = maxBodyBytes(route.bodySize());
        if (route instanceof IngestRoute.Sentry sentry) {
            requireDeclaredWithin(head, max);
            return admitSentry(sentry, head, client, max);
        }
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
        RequestQuota quota = RequestQuota.takenAtHead(quotas, project, route);
        requireDeclaredWithin(head, max);
        return new Admitted(route, project, budget.expect(client, project.token(), declared(head)), null, client, max, quota);
    }

    private static void requireDeclaredWithin(RequestHead head, int max) {
        if (head.contentLength() > max) {
            throw new Rejection(Outcome.BODY_TOO_LARGE, "the request body is larger than " + max + " bytes");
        }
    }

    /** The largest body a route of {@code size} takes, as sent. */
    public int maxBodyBytes(BodySize size) {
        return switch (size) {
            case EVENT -> maxBodyBytes;
            case ENVELOPE -> maxEnvelopeBytes;
            case OTLP_EXPORT -> maxOtlpBytes;
        };
    }

    private Admitted admitSentry(IngestRoute.Sentry route, RequestHead head, InetAddress client, int max) {
        String key;
        try {
            key = SentryCredentials.fromHead(head.sentryAuth(), head.authorization(), head.uri());
        } catch (Rejection refused) {
            if (refused.outcome() == Outcome.UNAUTHORIZED) {
                failedAuth.failed(client, System.nanoTime());
            }
            throw refused;
        }
        if (key == null) {
            if (!(route instanceof IngestRoute.SentryEnvelope)) {
                failedAuth.failed(client, System.nanoTime());
                throw new Rejection(Outcome.UNAUTHORIZED, "missing credentials: send X-Sentry-Auth: Sentry sentry_key=<public "
                        + "key of this project's DSN>, sentry_version=7 (or ?sentry_key=… in the query)");
            }
            // One client (address) may hold only its share: a stranger's head cannot take it all.
            long bound = Math.min(max, Math.min(unauthenticated.maxBytes(), unauthenticated.maxBytesPerClient()));
            if (head.contentLength() > bound) {
                throw new Rejection(Outcome.BODY_TOO_LARGE, "an envelope whose only credential is its dsn header may have at most "
                        + bound + " bytes; send X-Sentry-Auth for larger ones");
            }
            return new Admitted(route, null, unauthenticated.expect(client, null, declared(head)), null, client, bound, null);
        }
        Authenticator.DsnAuthenticated auth = authenticateDsn(route, key, client, head.origin());
        RequestQuota quota = RequestQuota.takenAtHead(quotas, auth.project(), route);
        // Per project too: a DSN key is public (in every browser), its holders may not take the whole budget.
        return new Admitted(route, auth.project(), budget.expect(client, auth.project().token(), declared(head)), auth.key(),
                client, max, quota);
    }

    /**
     * The size a head declares, checked against what is free now; 0 when it declares none (chunked):
     * such a body, like every body, takes its bytes as they arrive, held to its route's limit.
     */
    private static long declared(RequestHead head) {
        return Math.max(head.contentLength(), 0);
    }

    /**
     * An envelope admitted from its head, once its body is read: authenticated by the {@code dsn}
     * in its own header when its head named no key (then it takes what its head would have of the
     * quota), or checked against the key its head named; refused when it has no credential at all.
     *
     * @param dsn    the envelope header's {@code dsn}, or null
     * @param origin the request's Origin, or null
     */
    public Admitted authenticateEnvelope(Admitted admitted, String dsn, String origin) {
        IngestRoute.Sentry route = (IngestRoute.Sentry) admitted.route();
        if (dsn != null) {
            SentryCredentials.Dsn named = SentryCredentials.parseDsn(dsn);
            if (named.projectId() != route.projectId()) {
                throw new Rejection(Outcome.BAD_REQUEST, "the envelope's dsn names project "
                        + named.projectId() + ", the path " + route.projectId());
            }
            if (admitted.project() == null) {
                Authenticator.DsnAuthenticated auth = authenticateDsn(route, named.publicKey(), admitted.client(), origin);
                return admitted.authenticated(auth.project(), auth.key(), RequestQuota.takenAtHead(quotas, auth.project(), route));
            }
            if (!named.publicKey().equals(admitted.dsnKey().publicKey())) {
                throw new Rejection(Outcome.BAD_REQUEST, "the envelope's dsn names another sentry_key than the request");
            }
        }
        if (admitted.project() == null) {
            failedAuth.failed(admitted.client(), System.nanoTime());
            throw new Rejection(Outcome.UNAUTHORIZED, "missing credentials: send X-Sentry-Auth: Sentry sentry_key=<public key of "
                    + "this project's DSN>, sentry_version=7, ?sentry_key=… in the query, or the dsn in the envelope header");
        }
        return admitted;
    }

    /**
     * Checks a DSN key against the project in the path (a key matching no DSN key counts against
     * the client's failed authentications; another project's key is 403) and the browser origin
     * against the key. From the head, or from an envelope's own {@code dsn} header once its body is read.
     */
    private Authenticator.DsnAuthenticated authenticateDsn(IngestRoute.Sentry route, String key, InetAddress client,
                                                           String origin) {
        Authenticator.DsnAuthenticated auth;
        try {
            auth = authenticator.authenticateDsn(route.projectId(), key);
        } catch (Rejection refused) {
            // Only a key that matches nothing is a guess (as for v1): an expired DSN key still in
            // browsers, or another project's, must not lock out the addresses that send it.
            if (refused.outcome() == Outcome.UNAUTHORIZED && !authenticator.isKnownDsnKey(key)) {
                failedAuth.failed(client, System.nanoTime());
            }
            throw refused;
        }
        if (!auth.key().allowsOrigin(origin)) {
            throw new Rejection(Outcome.ORIGIN_NOT_ALLOWED, origin == null
                    ? "this DSN key is for browsers of listed origins only, and the request names no Origin"
                    : "this DSN key does not allow the origin " + origin);
        }
        return auth;
    }

    /** The token of a route (a Sentry route's numeric id looked up), or null: to count a refusal under. */
    public String tokenOf(IngestRoute route) {
        if (route == null) {
            return null;
        }
        return route instanceof IngestRoute.Sentry sentry ? authenticator.tokenOf(sentry.projectId()) : route.token();
    }
}
