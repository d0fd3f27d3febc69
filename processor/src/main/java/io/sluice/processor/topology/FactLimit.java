package io.sluice.processor.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.WindowStore;

import io.sluice.processor.rows.Fact;
import io.sluice.processor.rows.KeyText;
import io.sluice.processor.rows.RoutedKey;

/**
 * The per-project limits of a fact's names other than the route (its environment, an error's
 * exception type): the first names of each a project brings in an event-time day count under their
 * name, every later one under {@code <other>} in every aggregate the fact feeds, so they all agree on
 * it. A name may also be bounded jointly with the names limited before it, as {@link RouteLimit}
 * bounds series: a name admitted on its own counts under {@code <other>} too when its series (an
 * error's environment and exception type) is beyond {@link CardinalityLimits#seriesPerDay}; a name its
 * own limit counts under {@code <other>} takes no room there, its series being bounded by the others' limits.
 * Runs after the history (which keeps the names as sent) in the task that reads the raw
 * partition, like {@link RouteLimit}, and with the same reasoning: the decisions follow the
 * partition's order and the store is restored with the task, so a recompute makes the same ones.
 * One store holds every dimension's names and series, each under its own key prefix.
 */
final class FactLimit<F extends Fact> implements FixedKeyProcessor<String, F, Limited<F>> {
    /**
     * A limited name of a fact: how to read it, how to count the fact under another, and the text of
     * the series it is bounded in jointly with the names limited before it (null: none).
     */
    record Dimension<F>(LimitedName name, Function<F, String> read, BiFunction<F, String, F> replace, Function<F, String> series) {
        Dimension(LimitedName name, Function<F, String> read, BiFunction<F, String, F> replace) {
            this(name, read, replace, null);
        }
    }

    private final String storeName;
    private final CardinalityLimits limits;
    private final List<Dimension<F>> dimensions;
    private final List<DailyNames> names = new ArrayList<>();
    /** Each dimension's series, null for one without. */
    private final List<DailyNames> series = new ArrayList<>();
    private FixedKeyProcessorContext<String, Limited<F>> context;

    FactLimit(String storeName, CardinalityLimits limits, List<Dimension<F>> dimensions) {
        this.storeName = storeName;
        this.limits = limits;
        this.dimensions = dimensions;
    }

    static StoreBuilder<WindowStore<String, Long>> store(String name, Duration horizon, Duration lateMargin) {
        return RouteLimit.store(name, horizon, lateMargin);
    }

    @Override
    public void init(FixedKeyProcessorContext<String, Limited<F>> context) {
        this.context = context;
        WindowStore<String, Long> store = context.getStateStore(storeName);
        names.clear(); // a task initialised again (after an aborted transaction) reads its restored store afresh
        series.clear();
        for (Dimension<F> dimension : dimensions) {
            // A dimension's name has no NUL: keys of two dimensions, or of a dimension and its series, never meet.
            names.add(new DailyNames(store, KeyText.nul(dimension.name().name(), "")));
            series.add(dimension.series() == null ? null : new DailyNames(store, KeyText.nul(dimension.name().name() + "_SERIES", "")));
        }
    }

    @Override
    public void process(FixedKeyRecord<String, F> record) {
        F fact = record.value();
        List<LimitedName> collapsed = null;
        for (int i = 0; i < dimensions.size(); i++) {
            Dimension<F> dimension = dimensions.get(i);
            if (!admits(i, fact, record.timestamp())) {
                fact = dimension.replace().apply(fact, RoutedKey.OTHER_ROUTE);
                if (collapsed == null) {
                    collapsed = new ArrayList<>(dimensions.size());
                }
                collapsed.add(dimension.name());
                limits.collapsed().add(dimension.name());
            }
        }
        context.forward(record.withValue(collapsed == null ? Limited.kept(fact) : new Limited<>(fact, List.copyOf(collapsed))));
    }

    /** Whether the fact keeps the dimension's name: admitted on its own, then in its series if it has one. */
    private boolean admits(int i, F fact, long timestamp) {
        Dimension<F> dimension = dimensions.get(i);
        if (!names.get(i).admits(fact.project(), dimension.read().apply(fact), timestamp, limits.perDay(dimension.name()))) {
            return false;
        }
        DailyNames inSeries = series.get(i);
        return inSeries == null || inSeries.admits(fact.project(), dimension.series().apply(fact), timestamp, limits.seriesPerDay());
    }
}
