package io.sluice.gateway.admit;

import java.net.InetAddress;
import java.util.List;

/**
 * What admission reads of a request, before its body.
 *
 * @param peer          the connection's remote address, or null when unknown
 * @param forwardedFor  the values of every {@code X-Forwarded-For} header, in order
 * @param authorization the {@code Authorization} header, or null
 * @param contentLength the declared body size, or -1 when the head declares none
 * @param sentryAuth    the {@code X-Sentry-Auth} header, or null
 * @param origin        the {@code Origin} header (a browser's page), or null
 */
public record RequestHead(String method, String uri, InetAddress peer, List<String> forwardedFor, String authorization,
                          long contentLength, String sentryAuth, String origin) {
    public RequestHead(String method, String uri, InetAddress peer, List<String> forwardedFor, String authorization,
                       long contentLength) {
        this(method, uri, peer, forwardedFor, authorization, contentLength, null, null);
    }
}
