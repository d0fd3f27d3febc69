package io.sluice.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.engines.Ports;

/** Ceiling of the gateway: a bare Netty server answering 200, under the same load generator and body. */
final class BareNettyCeiling {
    private BareNettyCeiling() {
    }

    /** Requests/s and latencies per number of connections, in the order given. */
    @SuppressWarnings("try") // the server only has to be open while wrk runs
    static Map<Integer, Wrk.Result> measure(Wrk wrk, byte[] body, List<Integer> connections, int seconds) throws Exception {
        Map<Integer, Wrk.Result> results = new LinkedHashMap<>();
        int port = Ports.free();
        String url = "http://127.0.0.1:" + port + "/api/v1/x/transaction";
        try (BareNettyServer bare = new BareNettyServer(port)) {
            wrk.warmUp(url, "k", body, seconds);
            for (int c : connections) {
                results.put(c, wrk.run(url, "k", body, false, c, seconds));
            }
        }
        return results;
    }
}
