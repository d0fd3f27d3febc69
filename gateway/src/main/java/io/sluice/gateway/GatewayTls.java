package io.sluice.gateway;

import java.io.File;

import javax.net.ssl.SSLException;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

/** TLS for the public port, from PEM files, when both are configured (else plain HTTP behind a balancer). */
final class GatewayTls {
    private GatewayTls() {
    }

    /** The server's TLS context, or null when the gateway serves plain HTTP. */
    static SslContext context(GatewayConfig config) {
        boolean certificate = !config.tlsCertificate().isEmpty();
        boolean key = !config.tlsKey().isEmpty();
        if (!certificate && !key) {
            return null;
        }
        if (certificate != key) {
            throw new IllegalArgumentException("TLS needs both " + GatewayConfig.TLS_CERTIFICATE.name() + " and "
                    + GatewayConfig.TLS_KEY.name());
        }
        try {
            return SslContextBuilder.forServer(new File(config.tlsCertificate()), new File(config.tlsKey()))
                    .protocols("TLSv1.3", "TLSv1.2").build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot use the TLS certificate " + config.tlsCertificate() + " and key "
                    + config.tlsKey() + ": " + e.getMessage(), e);
        }
    }
}
