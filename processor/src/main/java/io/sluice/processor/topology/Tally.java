package io.sluice.processor.topology;

import java.util.function.BinaryOperator;
import java.util.function.IntFunction;

import org.apache.kafka.common.serialization.Serde;

/**
 * What the per-minute counting needs to know of one kind of counts: none, the sum of two, their
 * bytes, and what one record of the former repartition format (one event each, an int) adds.
 *
 * @param serde the counts' bytes in the window stores (traffic: {@link TrafficCountsSerde})
 * @param formerEvent the counts of one event as the former per-event repartition record gave it
 */
record Tally<C>(C zero, BinaryOperator<C> plus, Serde<C> serde, IntFunction<C> formerEvent) {
}
