package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;

class GatewayConfigTest {
    /** Behind a load balancer that is not a trusted proxy every request is one client's: a default share would cap the gateway. */
    @Test
    void byDefaultOneClientMayHoldTheWholeInFlightBudget() {
        GatewayConfig config = GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", "67108864")));
        assertEquals(67_108_864L, config.maxInFlightBytesPerClient());
    }

    @Test
    void aPerClientShareIsAsSetButNeverAboveTheTotal() {
        assertEquals(8_388_608L, GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", "67108864",
                "SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES_PER_CLIENT", "8388608"))).maxInFlightBytesPerClient());
        assertEquals(1_000L, GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", "1000",
                "SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES_PER_CLIENT", "8388608"))).maxInFlightBytesPerClient());
    }

    @Test
    void aProjectMayHoldAQuarterOfTheBudgetButAtLeastTheLargestEnvelope() {
        assertEquals(33_554_432L, GatewayConfig.from(new Settings(Map.of())).maxInFlightBytesPerProject());
        assertEquals(67_108_864L, GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", "268435456")))
                .maxInFlightBytesPerProject());
        assertEquals(1_000L, GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", "1000")))
                .maxInFlightBytesPerProject());
        assertEquals(5_000_000L, GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES_PER_PROJECT", "5000000")))
                .maxInFlightBytesPerProject());
    }

    /** A share of 0 or NaN would hold every project with a quota to about an event per 1,000 s (NaN: none at all). */
    @Test
    void aQuotaShareOutsideAThousandthToOneIsRefusedAtStartup() {
        for (String share : new String[] {"0", "-1", "NaN", "2"}) {
            assertThrows(IllegalArgumentException.class,
                    () -> GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_QUOTA_SHARE", share))), share);
        }
        assertEquals(0.25, GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_QUOTA_SHARE", "0.25"))).quotaShare());
    }

    @Test
    void aGatewayOnLoopbackWithoutAPartitionKeyUsesThePublicDevelopmentKey() {
        assertEquals(true, GatewayConfig.from(new Settings(Map.of())).partitions().usesDevelopmentKey());
        assertEquals(true, GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_HOST", "localhost"))).partitions().usesDevelopmentKey());
    }

    /** Other machines' clients could otherwise compute the partition of their ids and aim them at one. */
    @Test
    void aGatewayOthersCanReachRefusesToStartWithoutASecretPartitionKey() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_HOST", "0.0.0.0"))));
        assertEquals(true, refused.getMessage().startsWith("SLUICE_PARTITION_KEY must be set"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_HOST", "0.0.0.0",
                "SLUICE_PARTITION_KEY", io.sluice.gateway.publish.PartitionChooser.DEVELOPMENT_KEY))));
        assertEquals(false, GatewayConfig.from(new Settings(Map.of("SLUICE_GATEWAY_HOST", "0.0.0.0",
                "SLUICE_PARTITION_KEY", "k9XJ2mQ7vL0pR4sT8wY1zA3bC5dE6fG="))).partitions().usesDevelopmentKey());
    }

    @Test
    void aPartitionKeyShorterThanSixteenBytesIsRefusedAtStartup() {
        assertThrows(IllegalArgumentException.class,
                () -> GatewayConfig.from(new Settings(Map.of("SLUICE_PARTITION_KEY", "too short"))));
    }
}
