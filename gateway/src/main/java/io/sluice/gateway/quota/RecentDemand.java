package io.sluice.gateway.quota;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * What this gateway was asked of each quota lately, as it reports it: each interval's count added
 * to the earlier ones decayed by {@code e^(-interval/timeConstant)}. So a quota stays in every
 * report through a quiet spell and its parts stay split among the gateways that saw it (their
 * demands decay alike, their ratio unchanged), instead of each gateway taking the whole quota
 * when the quiet ends. A quota whose demand fell below one event is dropped: after about
 * {@code timeConstant × ln(events a second × timeConstant)} of quiet. At most
 * {@link UsageReport#MAX_QUOTAS} are kept, the most asked. Not thread-safe: the follower's.
 */
final class RecentDemand {
    private final double kept;
    private final Map<String, Double> demand = new HashMap<>();

    RecentDemand(Duration interval, Duration timeConstant) {
        this.kept = Math.exp(-(double) interval.toNanos() / timeConstant.toNanos());
    }

    /** Adds one interval's counts; returns each quota's demand as reported (at least 1). */
    Map<String, Integer> next(Map<String, Long> counted) {
        demand.replaceAll((quota, events) -> events * kept);
        counted.forEach((quota, events) -> demand.merge(quota, (double) events, Double::sum));
        demand.values().removeIf(events -> events < 1);
        if (demand.size() > UsageReport.MAX_QUOTAS) {
            demand.entrySet().stream().sorted(Map.Entry.comparingByValue())
                    .limit(demand.size() - UsageReport.MAX_QUOTAS).map(Map.Entry::getKey).toList()
                    .forEach(demand::remove);
        }
        Map<String, Integer> report = new HashMap<>();
        demand.forEach((quota, events) -> report.put(quota, (int) Math.min(Integer.MAX_VALUE, Math.round(events))));
        return report;
    }
}
