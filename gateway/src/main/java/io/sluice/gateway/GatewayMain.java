package io.sluice.gateway;

import io.sluice.config.Settings;
import io.sluice.fatal.FatalErrors;

/** Runs a gateway configured from the environment until SIGTERM/SIGINT. */
public final class GatewayMain {
    private GatewayMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        FatalErrors.install();
        GatewayConfig config = GatewayConfig.from(Settings.fromEnvironment());
        Gateway gateway = Gateway.start(config);
        Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "sluice-gateway-shutdown"));
    }
}
