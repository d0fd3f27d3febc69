package io.sluice.gateway.quota;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * How a quota is split between the gateways: each takes the part of it that it was asked for,
 * {@code mine / (mine + what the others were asked)}, from the last interval's counts, so the
 * parts add up to the whole wherever the traffic goes. A quota this gateway was not asked for
 * last interval gets an equal part, 1/N of the gateways there, until its next count is in.
 *
 * <p>The others' counts come from their reports and age out {@code forgetAfter} after they were
 * read (a gateway gone without a word), at once for a gateway that said it leaves. The time they
 * age against is the caller's: the follower gives the time its own last report came back, so that
 * while nothing can be read nobody is forgotten. Not thread-safe: used by the one thread that
 * follows the reports.
 */
final class QuotaSplit {
    private final long forgetAfterNanos;
    /** Per other gateway: its last report and when it was read. */
    private final Map<String, Seen> others = new HashMap<>();

    private record Seen(UsageReport report, long readNanos) {
    }

    QuotaSplit(long forgetAfterNanos) {
        this.forgetAfterNanos = forgetAfterNanos;
    }

    void received(UsageReport report, long nowNanos) {
        if (report.leaving()) {
            others.remove(report.gateway());
        } else {
            others.put(report.gateway(), new Seen(report, nowNanos));
        }
    }

    /** The gateways there now, this one included. */
    int gateways(long nowNanos) {
        forget(nowNanos);
        return others.size() + 1;
    }

    /** This gateway's part of each quota it was asked for last interval ({@code mine}); other quotas get {@link #equalPart}. */
    Map<String, Double> parts(Map<String, Integer> mine, long nowNanos) {
        forget(nowNanos);
        Map<String, Double> parts = new HashMap<>();
        for (Map.Entry<String, Integer> entry : mine.entrySet()) {
            long asked = entry.getValue();
            if (asked <= 0) {
                continue;
            }
            long total = asked;
            for (Seen seen : others.values()) {
                total += seen.report().asked().getOrDefault(entry.getKey(), 0);
            }
            parts.put(entry.getKey(), (double) asked / total);
        }
        return parts;
    }

    double equalPart(long nowNanos) {
        return 1.0 / gateways(nowNanos);
    }

    private void forget(long nowNanos) {
        for (Iterator<Seen> it = others.values().iterator(); it.hasNext(); ) {
            if (nowNanos - it.next().readNanos() > forgetAfterNanos) {
                it.remove();
            }
        }
    }
}
