package io.sluice.processor.topology;

import java.time.Duration;
import java.util.function.Predicate;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

import io.sluice.config.Aggregate;
import io.sluice.config.Topics;
import io.sluice.processor.rows.Fact;

/**
 * Adds to a topology what a kind of fact is counted into ({@link FactCounts}): its names' limits, each
 * grouping it feeds (its facts, keys, route limit and {@link WindowChain}) and the outcomes of what the
 * limits counted under {@code <other>}.
 */
final class FactCounting {
    private final StreamsBuilder builder;
    private final Topics topics;
    private final Duration horizon;
    private final Duration lateMargin;
    private final int generation;
    private final CardinalityLimits limits;
    private final PreAggregation preAggregation;
    private final Predicate<Grouping<?, ?, ?, ?>> counted;

    /** @param counted the groupings counted (the others are left out, with their route limits) */
    FactCounting(StreamsBuilder builder, Topics topics, Duration horizon, Duration lateMargin, int generation, CardinalityLimits limits,
                 PreAggregation preAggregation, Predicate<Grouping<?, ?, ?, ?>> counted) {
        this.builder = builder;
        this.topics = topics;
        this.horizon = horizon;
        this.lateMargin = lateMargin;
        this.generation = generation;
        this.limits = limits;
        this.preAggregation = preAggregation;
        this.counted = counted;
    }

    /** Counts the facts (each seen once) into every aggregate their declaration names. */
    <F extends Fact> void count(KStream<String, F> facts, FactCounts<F> declaration) {
        String kind = declaration.kind();
        String namesStore = declaration.namesStore();
        builder.addStateStore(FactLimit.store(namesStore, horizon, lateMargin));
        KStream<String, Limited<F>> limited = facts.processValues(() -> new FactLimit<>(namesStore, limits, declaration.names()),
                Named.as("limit-" + kind + "-names"), namesStore);
        KStream<String, F> named = limited.mapValues(Limited::value, Named.as(kind + "-named"));
        KStream<String, LimitedName> collapsed = limited.flatMap((token, fact) -> fact.collapsedIn(fact.value().project()),
                Named.as(kind + "-names-collapsed"));
        int merged = 0;
        for (Feed<F, ?, ?> feed : declaration.feeds()) {
            if (!counted.test(feed.grouping())) {
                continue;
            }
            KStream<String, LimitedName> routesCollapsed = feed(named, feed);
            if (routesCollapsed != null) {
                String name = kind + "-outcomes-collapsed" + (merged++ == 0 ? "" : "-" + merged);
                collapsed = collapsed.merge(routesCollapsed, Named.as(name));
            }
        }
        countCollapsed(collapsed, declaration.outcomesStore());
    }

    /** Counts the grouping's values; returns (project, route) for each the route limit counted under {@code <other>}, null without one. */
    private <F, K, V> KStream<String, LimitedName> feed(KStream<String, F> facts, Feed<F, K, V> feed) {
        KStream<String, F> fed = feed.only() == null ? facts
                : facts.filter((token, fact) -> feed.only().test(fact), Named.as(feed.onlyName()));
        KStream<K, V> keyed = fed.map((token, fact) -> feed.keyed().apply(fact), Named.as(feed.keyName()));
        PreAggregation.Tally tally = feed.tally().apply(preAggregation);
        Feed.Routes<K, V> routes = feed.routes();
        if (routes == null) {
            WindowChain.count(builder, keyed, feed.grouping(), tally, topics, horizon, lateMargin, generation);
            return null;
        }
        builder.addStateStore(RouteLimit.store(routes.store(), horizon, lateMargin));
        KStream<K, Limited<V>> limited = keyed.process(() -> routes.limit().apply(limits), Named.as(routes.limitName()), routes.store());
        KStream<String, LimitedName> collapsed = limited.flatMap((key, value) -> value.collapsedIn(routes.project().apply(key)),
                Named.as(routes.collapsedName()));
        WindowChain.count(builder, limited.mapValues(Limited::value, Named.as(routes.routedName())), feed.grouping(), tally, topics,
                horizon, lateMargin, generation);
        return collapsed;
    }

    /**
     * Outcomes of the events the limits counted under {@code <other>}, counted in the raw partition's
     * task (no repartition: the counter is the partition, see {@link CollapsedOutcomes}).
     */
    private void countCollapsed(KStream<String, LimitedName> collapsed, String store) {
        builder.addStateStore(CollapsedOutcomes.store(store, WindowChain.retention(Aggregate.OUTCOMES_1M, horizon, lateMargin)));
        collapsed.process(() -> new CollapsedOutcomes(store), Named.as(store + "-count"), store)
                .to(topics.outcomes(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(store + "-out"));
    }
}
