package io.sluice.gateway.ingest;

import io.sluice.outcomes.Outcome;

/**
 * A request's target, parsed once from its path ({@link #ofPath}), with its {@link #door} and the
 * rules of that door: the body limit it is held to ({@link #bodySize}, which also bounds its
 * decompression), what its head takes of the quota ({@link #headQuota}) and whether a compressed
 * body, however small, is read off the event loop ({@link #compressedReadsLong}), or any body
 * ({@link #everyBodyReadsLong}). One type per door: {@link V1}, {@link SentryStore},
 * {@link SentryEnvelope}, {@link Otlp}; and a browser's CORS {@link Preflight} of a Sentry route.
 */
public sealed interface IngestRoute {
    /**
     * The endpoint's name in metrics and in answers: {@code transaction}, {@code project}, {@code otlp_traces},
     * {@code otlp_logs}, {@code otlp_metrics}, {@code envelope}, {@code store}.
     */
    String name();

    /** The front door this route's requests come in by. */
    Door door();

    /** The project's token the path names; null on a Sentry route (known once its DSN key is checked). */
    String token();

    /** The endpoint of every event of this route, or null when each item names its own. */
    default Endpoint endpoint() {
        return null;
    }

    BodySize bodySize();

    HeadQuota headQuota();

    /**
     * Whether a compressed body of this route is read on a read worker however small it is: a
     * small compressed envelope or export may hold many items (a 29 KiB gzip envelope, 28 MiB of
     * them); a compressed event is at most one event's limit.
     */
    boolean compressedReadsLong();

    /**
     * Whether every body of this route is read on a read worker, compressed or not, however small:
     * an OTLP export's spans are mapped and validated in one task, span after span, and 256 KiB of
     * minimal spans is thousands of them.
     */
    default boolean everyBodyReadsLong() {
        return false;
    }

    /** What the request is sent with besides POST: its noun in a 405's message. */
    String sends();

    default boolean preflight() {
        return false;
    }

    /** {@code /api/v1/<token>/transaction} or {@code /project}: one JSON event, with the project's private key. */
    record V1(String token, Endpoint endpoint) implements IngestRoute {
        @Override
        public String name() {
            return endpoint.pathSegment();
        }

        @Override
        public Door door() {
            return Door.V1;
        }

        @Override
        public BodySize bodySize() {
            return BodySize.EVENT;
        }

        @Override
        public HeadQuota headQuota() {
            return HeadQuota.FIRST_EVENT;
        }

        @Override
        public boolean compressedReadsLong() {
            return false;
        }

        @Override
        public String sends() {
            return "event";
        }
    }

    /** {@code /api/v1/<token>/otlp/v1/traces}, {@code …/logs} or {@code …/metrics}: an OTLP/HTTP export of {@code signal}. */
    record Otlp(String token, OtlpSignal signal) implements IngestRoute {
        @Override
        public String name() {
            return signal.endpointName();
        }

        @Override
        public Door door() {
            return signal.door();
        }

        @Override
        public BodySize bodySize() {
            return BodySize.OTLP_EXPORT;
        }

        @Override
        public HeadQuota headQuota() {
            return HeadQuota.EACH_PART;
        }

        @Override
        public boolean compressedReadsLong() {
            return true;
        }

        @Override
        public boolean everyBodyReadsLong() {
            return true;
        }

        @Override
        public String sends() {
            return "export";
        }
    }

    /** A Sentry SDK's route, {@code /api/<numeric project id>/<name>/}, authenticated by a DSN key. */
    sealed interface Sentry extends IngestRoute {
        long projectId();

        @Override
        default String token() {
            return null;
        }

        @Override
        default HeadQuota headQuota() {
            return HeadQuota.PROJECT;
        }

        @Override
        default String sends() {
            return "envelope";
        }
    }

    /** {@code /api/<id>/store/}: one event JSON. */
    record SentryStore(long projectId) implements Sentry {
        @Override
        public String name() {
            return SentryEndpoint.STORE.pathSegment();
        }

        @Override
        public Door door() {
            return Door.SENTRY_STORE;
        }

        @Override
        public BodySize bodySize() {
            return BodySize.EVENT;
        }

        @Override
        public boolean compressedReadsLong() {
            return false;
        }
    }

    /** {@code /api/<id>/envelope/}: a header line, then items. */
    record SentryEnvelope(long projectId) implements Sentry {
        @Override
        public String name() {
            return SentryEndpoint.ENVELOPE.pathSegment();
        }

        @Override
        public Door door() {
            return Door.SENTRY_ENVELOPE;
        }

        @Override
        public BodySize bodySize() {
            return BodySize.ENVELOPE;
        }

        @Override
        public boolean compressedReadsLong() {
            return true;
        }
    }

    /** A browser's CORS {@code OPTIONS} on a Sentry route: answered at once, no body read, nothing taken. */
    record Preflight(Sentry of) implements IngestRoute {
        @Override
        public String name() {
            return of.name();
        }

        @Override
        public Door door() {
            return of.door();
        }

        @Override
        public String token() {
            return null;
        }

        @Override
        public BodySize bodySize() {
            return of.bodySize();
        }

        @Override
        public HeadQuota headQuota() {
            return of.headQuota();
        }

        @Override
        public boolean compressedReadsLong() {
            return of.compressedReadsLong();
        }

        @Override
        public String sends() {
            return of.sends();
        }

        @Override
        public boolean preflight() {
            return true;
        }
    }

    /** The OTLP/HTTP traces endpoint of a project. */
    static IngestRoute otlpTraces(String token) {
        return new Otlp(token, OtlpSignal.TRACES);
    }

    /** The route of a request, or a 404/405 {@link Rejection}. */
    static IngestRoute of(String method, String uri) {
        IngestRoute route = ofPath(uri);
        if (route == null) {
            throw notFound();
        }
        return route.forMethod(method);
    }

    /**
     * The route a request's path names, whatever its method (a refused request is still counted and
     * answered as its route's), or null when it names none. Parsed once per request, from its head.
     */
    static IngestRoute ofPath(String uri) {
        return RoutePath.parse(uri);
    }

    /** This route as requested with {@code method}: a preflight (a Sentry route's OPTIONS), itself (POST), or a 405. */
    default IngestRoute forMethod(String method) {
        if ("POST".equals(method)) {
            return this;
        }
        if (this instanceof Sentry sentry && "OPTIONS".equals(method)) {
            return new Preflight(sentry);
        }
        throw new Rejection(Outcome.METHOD_NOT_ALLOWED, method + " is not allowed here; send the " + sends() + " with POST");
    }

    /** The 404 of a path that names no route. */
    static Rejection notFound() {
        return new Rejection(Outcome.NOT_FOUND, "no such endpoint; use POST /api/v1/<project_token>/transaction or "
                + "/api/v1/<project_token>/project, an OpenTelemetry exporter with /api/v1/<project_token>/otlp as its "
                + "endpoint, or a Sentry SDK with this project's DSN");
    }
}
