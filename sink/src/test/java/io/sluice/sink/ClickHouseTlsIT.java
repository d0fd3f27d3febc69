package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.clickhouse.client.api.Client;

import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** The sink's client speaks TLS to ClickHouse and checks the server against SLUICE_CLICKHOUSE_CA_FILE. */
@ExtendWith(RealEngines.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClickHouseTlsIT {
    @TempDir
    static Path certificates;
    private static TlsProxy proxy;
    private static Engines engines;

    @BeforeAll
    static void start(Engines realEngines) throws Exception {
        engines = realEngines;
        URI clickHouse = URI.create(engines.clickHouseUrl());
        proxy = TlsProxy.start(certificates, clickHouse.getHost(), clickHouse.getPort());
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
    }

    private static ClickHouseSettings settings(String caFile) {
        return new ClickHouseSettings(proxy.url(), engines.clickHouseUser(), engines.clickHousePassword(), "sluice", 90, caFile);
    }

    @Test
    void queriesOverHttpsSucceedWithTheServersCaFile() throws Exception {
        try (Client client = ClickHouseClients.create(settings(proxy.caFile().toString()))) {
            assertEquals("42", client.queryAll("SELECT 42 AS answer").get(0).getString("answer"));
        }
    }

    @Test
    void withoutTheCaFileTheJvmTrustStoreRefusesTheServer() {
        try (Client client = ClickHouseClients.create(settings(""))) {
            Exception refused = assertThrows(Exception.class, () -> client.queryAll("SELECT 42 AS answer"));
            assertTrue(causedBySsl(refused), "not a certificate failure: " + refused);
        }
    }

    private static boolean causedBySsl(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof javax.net.ssl.SSLException) {
                return true;
            }
        }
        return false;
    }
}
