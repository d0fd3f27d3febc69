package io.sluice.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.bench.ceiling.BareNettyServer;
import io.sluice.engines.Ports;

/** wrk at a fixed rate sends that rate, however many connections it holds, against a server that could take far more. */
class WrkFixedRateIT {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aFixedRateIsHeldOverManyConnections() throws Exception {
        Wrk.ensureInstalled();
        int port = Ports.free();
        try (BareNettyServer server = new BareNettyServer(port)) {
            Wrk.Result paced = new Wrk(dir).run("http://127.0.0.1:" + port + "/api/v1/x/transaction", "k", List.of(Payloads.transaction()),
                    false, 64, 4, 2_000);
            assertEquals(2_000, paced.requestsPerSecond(), 150, "requests/s at a fixed 2,000/s");
            assertTrue(paced.non2xx() == 0 && paced.errors() == 0, paced.toString());
        }
    }
}
