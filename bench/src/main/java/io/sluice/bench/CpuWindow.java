package io.sluice.bench;

/** A child's CPU use over a measured window: starts now, {@link #coresUsed()} at its end. */
final class CpuWindow {
    private final ChildJvm child;
    private final double startCpu;
    private final long startNanos;

    private CpuWindow(ChildJvm child) {
        this.child = child;
        this.startCpu = child.cpuSeconds();
        this.startNanos = System.nanoTime();
    }

    static CpuWindow start(ChildJvm child) {
        return new CpuWindow(child);
    }

    /** CPU seconds used since the start per wall-clock second: 1.0 is one core busy all the time. */
    double coresUsed() {
        double wall = (System.nanoTime() - startNanos) / 1e9;
        return (child.cpuSeconds() - startCpu) / Math.max(1e-3, wall);
    }

    /** Events per second per core used: {@code eventsPerSecond} divided by the cores used in this window. */
    static double perCore(double eventsPerSecond, double cores) {
        return cores > 0 ? eventsPerSecond / cores : Double.NaN;
    }
}
