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
 */
public record RequestHead(String method, String uri, InetAddress peer, List<String> forwardedFor, String authorization,
                          long contentLength) {
}
