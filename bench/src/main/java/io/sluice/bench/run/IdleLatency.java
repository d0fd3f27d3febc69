package io.sluice.bench.run;

import java.time.Instant;
import java.util.List;

import io.sluice.bench.load.Payloads;
import io.sluice.bench.load.Wrk;

/**
 * How long one event waits for its answer when nothing else is sent (issue 40: a Sentry SDK's send
 * queue overflows when each answer takes long): a v1 transaction at a time on one keep-alive
 * connection, then an envelope of one transaction at a time, each on a new connection as
 * {@code @sentry/node} sends it. The gateway answers once Kafka has acknowledged the event durably.
 * Measured after the bench's load, so on a warm stack as in production; each is first sent for
 * {@link #WARM_SECONDS}, untimed: the load ran v1 requests only, and an envelope's path is
 * compiled by its own first requests.
 */
public final class IdleLatency {
    /** Issue 40's target: half the answers within this. */
    public static final double TARGET_P50_MILLIS = 3;
    /** The same requests before each measured run, untimed. */
    public static final int WARM_SECONDS = 3;
    /** Each measured run: about a thousand requests or more at a few milliseconds each. */
    public static final int SECONDS = 5;

    /** The two kinds of request, each measured one at a time after {@code warmSeconds} of the same. */
    public record Result(Wrk.Result v1KeepAlive, Wrk.Result envelopeNewConnections, int warmSeconds) {
    }

    private IdleLatency() {
    }

    /**
     * @param v1Url       the gateway's v1 transaction URL
     * @param envelopeUrl the gateway's envelope URL with the DSN key in its query
     */
    static Result measure(Wrk wrk, String v1Url, String key, List<byte[]> bodies, String envelopeUrl, int warmSeconds, int seconds)
            throws Exception {
        wrk.run(v1Url, key, bodies, false, 1, warmSeconds);
        Wrk.Result v1 = answered(wrk.run(v1Url, key, bodies, false, 1, seconds), "v1 transactions");
        String envelope = Payloads.nodeTransactionEnvelope(Instant.now());
        wrk.envelopesOnNewConnections(envelopeUrl, envelope, warmSeconds);
        Wrk.Result envelopes = answered(wrk.envelopesOnNewConnections(envelopeUrl, envelope, seconds), "envelopes");
        return new Result(v1, envelopes, warmSeconds);
    }

    /** A run with a refusal or a failed request measured something else than an answered event. */
    private static Wrk.Result answered(Wrk.Result run, String what) {
        if (run.non2xx() != 0 || run.errors() != 0) {
            throw new IllegalStateException(what + " were not all answered 2xx: " + run);
        }
        return run;
    }

    /** The run's line, as the terminal and the report show it. */
    private static String line(String name, Wrk.Result run, int warmSeconds) {
        return String.format("%-34s p50 %.2f ms, p99 %.2f ms (%,d requests one at a time, after %d s of the same; "
                + "target p50 <= %.0f ms: %s)", name, run.p50Millis(), run.p99Millis(), run.requests(), warmSeconds,
                TARGET_P50_MILLIS, run.p50Millis() <= TARGET_P50_MILLIS ? "met" : "not met");
    }

    /** Both lines of {@code result}. */
    public static List<String> lines(Result result) {
        return List.of(line("idle latency, v1 keep-alive", result.v1KeepAlive(), result.warmSeconds()),
                line("idle latency, envelope, new conn.", result.envelopeNewConnections(), result.warmSeconds()));
    }
}
