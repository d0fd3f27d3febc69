package io.sluice.sink;

import java.nio.file.Files;
import java.nio.file.Path;

import com.clickhouse.client.api.Client;

/** Builds the ClickHouse client from settings, in one place. */
public final class ClickHouseClients {
    static final String DISTRIBUTED_FOREGROUND_INSERT = "distributed_foreground_insert";

    private ClickHouseClients() {
    }

    public static Client create(ClickHouseSettings settings) {
        Client.Builder builder = new Client.Builder()
                .addEndpoint(settings.url())
                .setUsername(settings.user())
                .setPassword(settings.password())
                // On a cluster the sink inserts into Distributed tables: answer only once every shard
                // has stored its rows, not once they are queued on the receiving node
                // (deploy/clickhouse/cluster.sql). Harmless on a single node.
                .serverSetting(DISTRIBUTED_FOREGROUND_INSERT, "1");
        if (!settings.caFile().isEmpty()) {
            // Checked here: the client would otherwise fail only at the first query, with a vaguer message.
            if (!Files.isReadable(Path.of(settings.caFile()))) {
                throw new IllegalArgumentException(ClickHouseSettings.CA_FILE.name() + "=" + settings.caFile() + " is not a readable file");
            }
            // Trusts exactly this CA (PEM) for the https:// endpoint; without it the JVM's trust store applies.
            builder.setRootCertificate(settings.caFile());
        }
        return builder.build();
    }
}
