package io.sluice.projects;

/** How fast a project may send: a sustained rate in events per second, and a burst above it. */
public record Quota(long ratePerSecond, long burst) {
    public Quota {
        if (ratePerSecond <= 0 || burst <= 0) {
            throw new IllegalArgumentException("a quota needs a rate and a burst above 0, got rate "
                    + ratePerSecond + " and burst " + burst);
        }
    }

    @Override
    public String toString() {
        return ratePerSecond + " events/s, burst " + burst;
    }
}
