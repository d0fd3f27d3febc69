package io.sluice.gateway.quota;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a quota is split between the gateways: each takes the part of it that it was asked for,
 * {@code mine / (mine + what the others were asked)}, from the recent demands reported, so the
 * parts add up to the whole wherever the traffic goes. Its own count is taken as at least one
 * event: a quota nobody was asked for is wholly this gateway's (a burst on one gateway gets the
 * whole burst), one only the others were asked for gets a sliver until its next count is in.
 *
 * <p>The others' counts come from their reports and age out {@code forgetAfter} after they were
 * read (a gateway gone without a word), at once for a gateway that said it leaves. The time they
 * age against is the caller's: the follower gives the time its own last report came back, so that
 * while nothing can be read nobody is forgotten. Not thread-safe: used by the one thread that
 * follows the reports. At most {@link #MAX_GATEWAYS} others are remembered, the longest not
 * heard from dropped first, so records under made-up gateway ids cannot grow its memory.
 */
final class QuotaSplit {
    /** Most other gateways remembered. */
    static final int MAX_GATEWAYS = 1_000;

    private final long forgetAfterNanos;
    /** Per other gateway, the longest not heard from first: its last report and when it was read. */
    private final Map<String, Seen> others = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Seen> eldest) {
            return size() > MAX_GATEWAYS;
        }
    };

    private record Seen(UsageReport report, long readNanos) {
    }

    QuotaSplit(long forgetAfterNanos) {
        this.forgetAfterNanos = forgetAfterNanos;
    }

    void received(UsageReport report, long nowNanos) {
        // Removed first so that a gateway heard from again moves to the end of the order.
        others.remove(report.gateway());
        if (!report.leaving()) {
            others.put(report.gateway(), new Seen(report, nowNanos));
        }
    }

    /** The gateways there now, this one included. */
    int gateways(long nowNanos) {
        forget(nowNanos);
        return others.size() + 1;
    }

    /**
     * This gateway's part of each quota it or another gateway was asked for lately ({@code mine}:
     * its {@link RecentDemand}); a quota not in the answer is wholly this gateway's.
     */
    Map<String, Double> parts(Map<String, Integer> mine, long nowNanos) {
        forget(nowNanos);
        Map<String, Long> othersAsked = new HashMap<>();
        for (Seen seen : others.values()) {
            seen.report().asked().forEach((quota, asked) -> othersAsked.merge(quota, (long) asked, Long::sum));
        }
        Map<String, Double> parts = new HashMap<>();
        mine.keySet().forEach(quota -> othersAsked.putIfAbsent(quota, 0L));
        othersAsked.forEach((quota, asked) -> {
            long own = Math.max(1, mine.getOrDefault(quota, 0));
            parts.put(quota, (double) own / (own + asked));
        });
        return parts;
    }

    private void forget(long nowNanos) {
        for (Iterator<Seen> it = others.values().iterator(); it.hasNext(); ) {
            if (nowNanos - it.next().readNanos() > forgetAfterNanos) {
                it.remove();
            }
        }
    }
}
