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

    /** These counts and {@code other}'s: the partial sums of several tasks added into one minute's counts. */
    public TrafficCounts plus(TrafficCounts other) {
        return new TrafficCounts(requests + other.requests, status1xx + other.status1xx, status2xx + other.status2xx,
                status3xx + other.status3xx, status4xx + other.status4xx, status5xx + other.status5xx,
                statusNone + other.statusNone);
    }
}
