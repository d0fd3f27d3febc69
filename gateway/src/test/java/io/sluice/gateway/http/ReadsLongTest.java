package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.sluice.gateway.ingest.IngestRoute;

/** Which bodies are read on a read worker rather than on their event loop. */
class ReadsLongTest {
    private FullHttpRequest request;

    @AfterEach
    void release() {
        request.release();
    }

    private boolean readsLong(String uri, int bytes, String contentEncoding) {
        request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, uri, Unpooled.wrappedBuffer(new byte[bytes]));
        if (contentEncoding != null) {
            request.headers().set("Content-Encoding", contentEncoding);
        }
        return IngestPath.readsLong(IngestRoute.ofPath(uri), request);
    }

    @Test
    void aSmallEventIsReadOnItsLoopCompressedOrNot() {
        assertFalse(readsLong("/api/v1/shop/transaction", 2_000, "gzip"));
        assertFalse(readsLong("/api/1/store/", 2_000, null));
    }

    @Test
    void aBodyLargerThanASliceIsReadOnAWorker() {
        assertTrue(readsLong("/api/v1/shop/project", IngestPath.SLICE_BYTES + 1, null));
        assertTrue(readsLong("/api/1/envelope/", IngestPath.SLICE_BYTES + 1, null));
    }

    @Test
    void aCompressedEnvelopeIsReadOnAWorkerHoweverSmall() {
        assertTrue(readsLong("/api/1/envelope/", 2_000, "gzip"));
        assertFalse(readsLong("/api/1/envelope/", 2_000, "identity"));
    }

    /** Its spans are mapped and validated in one task: thousands of minimal spans fit a slice. */
    @Test
    void anOtlpExportIsReadOnAWorkerHoweverSmallCompressedOrNot() {
        assertTrue(readsLong("/api/v1/shop/otlp/v1/traces", 2_000, "gzip"));
        assertTrue(readsLong("/api/v1/shop/otlp/v1/traces", 2_000, null));
        assertTrue(readsLong("/api/v1/shop/otlp/v1/logs", 2_000, null));
    }
}
