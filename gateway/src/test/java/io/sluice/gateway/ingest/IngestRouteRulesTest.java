package io.sluice.gateway.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Each route, parsed from its path, carries the rules of its door. */
class IngestRouteRulesTest {
    @Test
    void eachRouteIsHeldToItsDoorsBodyLimit() {
        assertEquals(BodySize.EVENT, IngestRoute.ofPath("/api/v1/shop/transaction").bodySize());
        assertEquals(BodySize.EVENT, IngestRoute.ofPath("/api/7/store/").bodySize());
        assertEquals(BodySize.ENVELOPE, IngestRoute.ofPath("/api/7/envelope/").bodySize());
        assertEquals(BodySize.OTLP_EXPORT, IngestRoute.ofPath("/api/v1/shop/otlp/v1/logs").bodySize());
    }

    @Test
    void aV1HeadTakesItsEventsWholeQuotaASentryHeadTheProjectsShareAnOtlpHeadItsFirstPartsShare() {
        assertEquals(HeadQuota.FIRST_EVENT, IngestRoute.ofPath("/api/v1/shop/project").headQuota());
        assertEquals(HeadQuota.PROJECT, IngestRoute.ofPath("/api/7/store/").headQuota());
        assertEquals(HeadQuota.PROJECT, IngestRoute.ofPath("/api/7/envelope/").headQuota());
        assertEquals(HeadQuota.EACH_PART, IngestRoute.ofPath("/api/v1/shop/otlp/v1/traces").headQuota());
    }

    @Test
    void onlyAnEnvelopeOrAnExportIsReadOffItsLoopForBeingCompressed() {
        assertFalse(IngestRoute.ofPath("/api/v1/shop/transaction").compressedReadsLong());
        assertFalse(IngestRoute.ofPath("/api/7/store/").compressedReadsLong());
        assertTrue(IngestRoute.ofPath("/api/7/envelope/").compressedReadsLong());
        assertTrue(IngestRoute.ofPath("/api/v1/shop/otlp/v1/metrics").compressedReadsLong());
    }

    @Test
    void aPreflightIsNamedAndRuledAsTheRouteItPrecedes() {
        IngestRoute preflight = IngestRoute.of("OPTIONS", "/api/7/envelope/");

        assertTrue(preflight.preflight());
        assertEquals("envelope", preflight.name());
        assertEquals(BodySize.ENVELOPE, preflight.bodySize());
    }
}
