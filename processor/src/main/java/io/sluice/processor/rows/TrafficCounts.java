package io.sluice.processor.rows;

/** Requests of one project, environment and minute, by status class. Immutable; {@link #add} returns a new one. */
public record TrafficCounts(long requests, long status1xx, long status2xx, long status3xx, long status4xx,
                            long status5xx, long statusNone) {
    public static final TrafficCounts NONE = new TrafficCounts(0, 0, 0, 0, 0, 0, 0);

    public TrafficCounts add(Integer statusCode) {
        int statusClass = statusCode == null ? 0 : statusCode / 100;
        return new TrafficCounts(requests + 1,
                status1xx + (statusClass == 1 ? 1 : 0),
                status2xx + (statusClass == 2 ? 1 : 0),
                status3xx + (statusClass == 3 ? 1 : 0),
                status4xx + (statusClass == 4 ? 1 : 0),
                status5xx + (statusClass == 5 ? 1 : 0),
                statusNone + (statusClass == 0 ? 1 : 0));
    }
}
