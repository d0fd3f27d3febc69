package io.sluice.gateway.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import io.sluice.outcomes.Outcome;

class IngestRouteTest {
    @Test
    void sentryPathsWithAndWithoutTrailingSlashAndQuery() {
        assertEquals(new IngestRoute.SentryEnvelope(42), IngestRoute.of("POST", "/api/42/envelope/"));
        assertEquals(new IngestRoute.SentryEnvelope(42),
                IngestRoute.of("POST", "/api/42/envelope?sentry_key=k"));
        assertEquals(new IngestRoute.SentryStore(7), IngestRoute.of("POST", "/api/7/store"));
        assertEquals(new IngestRoute.Preflight(new IngestRoute.SentryStore(7)), IngestRoute.of("OPTIONS", "/api/7/store/"));
    }

    @Test
    void theV1PathsAreUnchanged() {
        assertEquals(new IngestRoute.V1("shop", Endpoint.TRANSACTION), IngestRoute.of("POST", "/api/v1/shop/transaction"));
        assertEquals(Outcome.METHOD_NOT_ALLOWED, assertThrows(Rejection.class,
                () -> IngestRoute.of("OPTIONS", "/api/v1/shop/transaction")).outcome());
    }

    @Test
    void theOtlpTracesPathIsWhatAnSdkMakesOfItsEndpoint() {
        IngestRoute route = IngestRoute.of("POST", "/api/v1/shop/otlp/v1/traces");

        assertEquals(IngestRoute.otlpTraces("shop"), route);
        assertEquals("shop", route.token());
        assertEquals("otlp_traces", route.name());
        assertEquals(IngestRoute.otlpTraces("shop"), IngestRoute.ofPath("/api/v1/shop/otlp/v1/traces/"));
        assertEquals(Outcome.METHOD_NOT_ALLOWED, assertThrows(Rejection.class,
                () -> IngestRoute.of("GET", "/api/v1/shop/otlp/v1/traces")).outcome());
        for (String other : new String[] {"/api/v1/shop/otlp/v1/profiles", "/api/v1/shop/otlp", "/api/v1//otlp/v1/traces",
                "/api/v1/shop/otlp/v1/traces/x", "/api/v1/shop/otlp/v1/logs/x"}) {
            assertEquals(null, IngestRoute.ofPath(other), other);
        }
    }

    @Test
    void theOtlpLogsAndMetricsPathsAreRoutesOfTheirSignal() {
        IngestRoute logs = IngestRoute.of("POST", "/api/v1/shop/otlp/v1/logs");
        IngestRoute metrics = IngestRoute.of("POST", "/api/v1/shop/otlp/v1/metrics/");

        assertEquals("shop", logs.token());
        assertEquals(OtlpSignal.LOGS, ((IngestRoute.Otlp) logs).signal());
        assertEquals("otlp_logs", logs.name());
        assertEquals("shop", metrics.token());
        assertEquals(OtlpSignal.METRICS, ((IngestRoute.Otlp) metrics).signal());
        assertEquals("otlp_metrics", metrics.name());
    }

    @Test
    void notDigitsTooLongOrOtherNamesAreNotFound() {
        for (String path : new String[] {"/api/abc/envelope/", "/api/1234567890123456/envelope/", "/api/1/minidump/",
                "/api//envelope/", "/api/1/2/envelope/"}) {
            assertEquals(Outcome.NOT_FOUND, assertThrows(Rejection.class, () -> IngestRoute.of("POST", path)).outcome(), path);
        }
        assertEquals(Outcome.METHOD_NOT_ALLOWED, assertThrows(Rejection.class, () -> IngestRoute.of("GET", "/api/1/envelope/")).outcome());
    }

    @Test
    void aPathNamesItsRouteWhateverTheMethodSoItsRefusalIsCountedAndAnsweredAsItsRoutes() {
        assertEquals(new IngestRoute.SentryEnvelope(42), IngestRoute.ofPath("/api/42/envelope/"));
        assertEquals(new IngestRoute.V1("shop", Endpoint.ERROR_REPORT), IngestRoute.ofPath("/api/v1/shop/project?x=1"));
        assertEquals(null, IngestRoute.ofPath("/api/v1/shop/metrics"));
        assertEquals(null, IngestRoute.ofPath("/healthz"));
    }

    @Test
    void onlyASentryRouteHasAPreflight() {
        assertEquals(new IngestRoute.Preflight(new IngestRoute.SentryEnvelope(42)),
                IngestRoute.ofPath("/api/42/envelope/").forMethod("OPTIONS"));
        assertEquals(Outcome.METHOD_NOT_ALLOWED, assertThrows(Rejection.class,
                () -> IngestRoute.ofPath("/api/v1/shop/project").forMethod("OPTIONS")).outcome());
    }
}
