package io.sluice.processor.topology;

import java.time.Duration;

/**
 * What the topology is built with.
 *
 * @param horizon      how old an event may be (the gateway's event-time horizon)
 * @param generation   of the aggregate rows' versions (raise it to recompute, see {@code Generations})
 * @param lateMargin   how long a minute stays open beyond the horizon (see {@link ProcessorTopology#DEFAULT_LATE_MARGIN})
 * @param sendInterval how often the source partitions send their changed counts on (the commit interval)
 */
public record TopologySettings(Duration horizon, int generation, Duration lateMargin, Duration sendInterval) {
    /** The defaults, with this horizon. */
    public static TopologySettings of(Duration horizon) {
        return new TopologySettings(horizon, 0, ProcessorTopology.DEFAULT_LATE_MARGIN, Duration.ofMillis(100));
    }
}
