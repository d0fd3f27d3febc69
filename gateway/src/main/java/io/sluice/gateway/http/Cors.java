package io.sluice.gateway.http;

import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.sluice.projects.DsnKey;

/**
 * CORS on the Sentry endpoints, so browser SDKs can send and read the answers (rate limits
 * included). The origin answered is the request's when its DSN key lists origins (and allows
 * it; a disallowed origin was refused with 403 before), else {@code *}.
 */
final class Cors {
    static final String ALLOWED_HEADERS = "content-type, x-sentry-auth, sentry-trace, baggage, content-encoding";
    static final String EXPOSED_HEADERS = "x-sentry-rate-limits, retry-after";
    static final String MAX_AGE_SECONDS = "86400";

    private Cors() {
    }

    /** The answer to a preflight {@code OPTIONS}: any origin may POST (the key and origin are checked on the POST). */
    static FullHttpResponse preflight() {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers()
                .set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, "POST")
                .set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS)
                .set(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, MAX_AGE_SECONDS)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        return apply(response, null, null);
    }

    /** Adds the CORS answer headers; {@code key} is the DSN key the request authenticated with, or null. */
    static FullHttpResponse apply(FullHttpResponse response, DsnKey key, String origin) {
        boolean listed = key != null && !key.allowedOrigins().isEmpty() && origin != null && key.allowsOrigin(origin);
        response.headers().set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, listed ? origin : "*");
        if (listed) {
            response.headers().set(HttpHeaderNames.VARY, HttpHeaderNames.ORIGIN);
        }
        response.headers().set(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED_HEADERS);
        return response;
    }
}
