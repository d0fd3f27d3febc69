package io.sluice.events;

import java.time.Duration;
import java.util.List;

import io.sluice.config.Setting;

/**
 * How far from receive time an event time may lie before the receive time is used instead.
 * Gateway (when it normalizes) and processor (how long it keeps windows and dedup state open)
 * share it, so every accepted event is counted in its event-time minute.
 */
public final class EventTime {
    public static final Setting HORIZON = new Setting("SLUICE_EVENT_TIME_HORIZON", "24h",
            "Oldest accepted event time (older: receive time is used); also how long duplicates are recognized.");
    public static final Duration MAX_FUTURE = Duration.ofSeconds(60);
    public static final List<Setting> SETTINGS = List.of(HORIZON);

    private EventTime() {
    }
}
