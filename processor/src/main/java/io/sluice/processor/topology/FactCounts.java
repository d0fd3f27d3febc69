package io.sluice.processor.topology;

import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import io.sluice.processor.rows.Fact;

/**
 * A kind of fact and every aggregate counted from it: the names bounded per project and day in all
 * of them ({@link FactLimit}), then each grouping it feeds ({@link Feed}); what the limits count
 * under {@code <other>} goes to the outcomes ({@link CollapsedOutcomes}). Its stores and processors
 * are named from its kind, and running deployments hold the stores: a kind never changes.
 */
record FactCounts<F extends Fact>(String kind, List<FactLimit.Dimension<F>> names, List<Feed<F, ?, ?>> feeds) {
    FactCounts {
        names = List.copyOf(names);
        feeds = List.copyOf(feeds);
    }

    /** The store of its names' limits. */
    String namesStore() {
        return kind + "-names";
    }

    /** The store of the outcomes of what its limits counted under {@code <other>}. */
    String outcomesStore() {
        return kind + "-outcomes";
    }

    /** The stores of its limits, of names and of routes: each a store of one-day windows ({@link RouteLimit#store}). */
    List<String> limitStores() {
        return Stream.concat(Stream.of(namesStore()), feeds.stream().map(Feed::routes).filter(Objects::nonNull).map(Feed.Routes::store))
                .toList();
    }
}
