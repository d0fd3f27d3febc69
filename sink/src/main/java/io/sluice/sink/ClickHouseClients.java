package io.sluice.sink;

import com.clickhouse.client.api.Client;

/** Builds the ClickHouse client from settings, in one place. */
public final class ClickHouseClients {
    private ClickHouseClients() {
    }

    public static Client create(ClickHouseSettings settings) {
        return new Client.Builder()
                .addEndpoint(settings.url())
                .setUsername(settings.user())
                .setPassword(settings.password())
                .build();
    }
}
