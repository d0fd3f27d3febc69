package io.sluice.bench.ceiling;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.bench.load.Wrk;
import io.sluice.bench.process.CpuClock;
import io.sluice.bench.process.CpuWindow;
import io.sluice.engines.Ports;

/** Ceiling of the gateway: a bare Netty server answering 200, under the same load generator and bodies. */
public final class BareNettyCeiling {
    private BareNettyCeiling() {
    }

    private static final String EVENT_LOOPS = "bare netty: event loops";

    /**
     * Requests/s and latencies per number of connections, in the order given, and the cores its event
     * loops used in each run (their threads' CPU: the server shares this JVM with the broker).
     */
    public record Result(Map<Integer, Wrk.Result> runs, Map<Integer, Double> cores) {
    }

    @SuppressWarnings("try") // the server only has to be open while wrk runs
    public static Result measure(Wrk wrk, List<byte[]> bodies, List<Integer> connections, int seconds) throws Exception {
        Map<Integer, Wrk.Result> results = new LinkedHashMap<>();
        Map<Integer, Double> cores = new LinkedHashMap<>();
        CpuClock clock = CpuClock.ofThisJvm("bare netty", List.of(new CpuClock.Component(EVENT_LOOPS, List.of(BareNettyServer.THREADS))));
        int port = Ports.free();
        String url = "http://127.0.0.1:" + port + "/api/v1/x/transaction";
        try (BareNettyServer bare = new BareNettyServer(port)) {
            wrk.warmUp(url, "k", bodies, seconds);
            for (int c : connections) {
                CpuWindow cpu = CpuWindow.start(clock, EVENT_LOOPS);
                results.put(c, wrk.run(url, "k", bodies, false, c, seconds));
                cores.put(c, cpu.coresUsed());
            }
        }
        return new Result(results, cores);
    }
}
