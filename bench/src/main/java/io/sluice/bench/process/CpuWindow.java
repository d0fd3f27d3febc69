package io.sluice.bench.process;

import java.util.function.DoubleSupplier;

/** A process's CPU use over a measured window: starts now, {@link #coresUsed()} at its end. */
public final class CpuWindow {
    private final DoubleSupplier cpuSeconds;
    private final double startCpu;
    private final long startNanos;

    private CpuWindow(DoubleSupplier cpuSeconds) {
        this.cpuSeconds = cpuSeconds;
        this.startCpu = cpuSeconds.getAsDouble();
        this.startNanos = System.nanoTime();
    }

    public static CpuWindow start(ChildJvm child) {
        return new CpuWindow(child::cpuSeconds);
    }

    /** One component of a process, as {@code clock} splits it. */
    public static CpuWindow start(CpuClock clock, String component) {
        return new CpuWindow(() -> clock.read().get(component));
    }

    /** This JVM's: the embedded Kafka broker's, above all, when the bench itself does little meanwhile. */
    public static CpuWindow startOfThisJvm() {
        ProcessHandle self = ProcessHandle.current();
        return new CpuWindow(() -> self.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN));
    }

    /** CPU seconds used since the start per wall-clock second: 1.0 is one core busy all the time. */
    public double coresUsed() {
        double wall = (System.nanoTime() - startNanos) / 1e9;
        return (cpuSeconds.getAsDouble() - startCpu) / Math.max(1e-3, wall);
    }

    /** µs of CPU per event at {@code eventsPerSecond} on {@code cores}: the inverse of {@link #perCore}. */
    public static double microsPerEvent(double cores, double eventsPerSecond) {
        return eventsPerSecond > 0 ? cores / eventsPerSecond * 1e6 : Double.NaN;
    }

    /** Events per second per core used: {@code eventsPerSecond} divided by the cores used in this window. */
    public static double perCore(double eventsPerSecond, double cores) {
        return cores > 0 ? eventsPerSecond / cores : Double.NaN;
    }
}
