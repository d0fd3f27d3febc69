package io.sluice.gateway.http;

import java.time.Duration;

/**
 * The limits the pipeline enforces per connection and request.
 *
 * @param idleTimeout    a connection with no request under way closes after this
 * @param receiveTimeout a request must be received completely within this once it began
 */
public record HttpLimits(int maxConnections, int maxBodyBytes, Duration idleTimeout, Duration receiveTimeout) {
}
