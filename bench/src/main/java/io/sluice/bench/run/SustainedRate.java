package io.sluice.bench.run;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import io.sluice.bench.load.Wrk;
import io.sluice.bench.process.ChildJvm;
import io.sluice.bench.process.CpuWindow;

/**
 * The pipeline's sustained rate: the highest gateway load, at a fixed rate, at which the processor
 * (running at the same time) keeps up — its lag stays flat over a step. Bisects between nothing and
 * an upper bound (the processor's backlog rate, or the gateway's best, whichever is lower) within a
 * time budget.
 *
 * <p>A step is flat when the lag's growth over it — the least-squares slope of one sample a second,
 * times the step's length — is below {@link #TOLERANCE_SECONDS} seconds' worth of the rate achieved,
 * and the gateway delivered the rate: at least {@link #DELIVERED} of the target, with no non-2xx
 * answers and no socket errors.
 */
public final class SustainedRate {
    /** The lag may grow by at most this many seconds of the offered rate over a step. */
    public static final double TOLERANCE_SECONDS = 1.0;
    /** The share of the target rate the gateway must deliver for a step to count. */
    public static final double DELIVERED = 0.9;
    /** Connections enough for any rate this machine reaches at a few milliseconds per answer. */
    public static final int CONNECTIONS = 256;
    private static final int MAX_STEPS = 6;
    /**
     * A lag this small counts as caught up: exactly-once commits leave a transaction marker after
     * the last committed offset of each partition, so an idle processor's lag is rarely 0.
     */
    static final long AT_REST = 1000;

    /** One step: the rate aimed at and achieved, the lag's growth, and the children's CPU over it. */
    public record Step(double targetPerSecond, double achievedPerSecond, long lagGrowth, double toleranceRecords, boolean flat,
                double gatewayCores, double processorCores, Wrk.Result load) {
    }

    /**
     * The highest flat step's achieved rate (0 if none was), the search's upper bound, and every step
     * in the order run.
     */
    public record Result(double eventsPerSecond, double upperPerSecond, List<Step> steps) {
        /** True when every step kept up, so the pipeline may sustain more than the bound let the search try. */
        public boolean atUpperBound() {
            return steps.stream().allMatch(Step::flat);
        }

        public Step best() {
            return steps.stream().filter(Step::flat).max(java.util.Comparator.comparingDouble(Step::achievedPerSecond))
                    .orElse(null);
        }
    }

    /** What a step needs besides its rate: load at a rate, and the processor's lag. */
    interface Load {
        Wrk.Result run(double rate, int seconds) throws Exception;
    }

    private SustainedRate() {
    }

    static Result measure(Load load, ProcessorLag lag, ChildJvm gateway, ChildJvm processor, double upper, int seconds,
                          PrintStream out) throws Exception {
        long budgetNanos = 12L * seconds * 1_000_000_000L;
        long started = System.nanoTime();
        double low = 0;
        double high = upper;
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < MAX_STEPS && System.nanoTime() - started < budgetNanos; i++) {
            double target = (low + high) / 2;
            Step step = step(load, lag, gateway, processor, target, seconds);
            steps.add(step);
            out.printf("  %,.0f events/s offered, %,.0f delivered: lag grew by %,d records (tolerance %,.0f), %s%n",
                    target, step.achievedPerSecond(), step.lagGrowth(), step.toleranceRecords(),
                    step.flat() ? "keeps up" : "falls behind");
            if (step.flat()) {
                low = target;
            } else {
                high = target;
                drain(lag, Math.max(AT_REST, step.toleranceRecords()), 3 * seconds);
            }
        }
        Result result = new Result(0, upper, steps);
        return result.best() == null ? result : new Result(result.best().achievedPerSecond(), upper, steps);
    }

    private static Step step(Load load, ProcessorLag lag, ChildJvm gateway, ChildJvm processor, double target, int seconds)
            throws Exception {
        Wrk.Result[] result = new Wrk.Result[1];
        Exception[] failure = new Exception[1];
        Thread loader = new Thread(() -> {
            try {
                result[0] = load.run(target, seconds);
            } catch (Exception e) {
                failure[0] = e;
            }
        }, "sustained-load");
        CpuWindow gatewayCpu = CpuWindow.start(gateway);
        CpuWindow processorCpu = CpuWindow.start(processor);
        long start = System.nanoTime();
        loader.start();
        List<double[]> samples = new ArrayList<>();
        while (loader.isAlive()) {
            samples.add(new double[] {(System.nanoTime() - start) / 1e9, lag.records()});
            loader.join(1000);
        }
        double gatewayCores = gatewayCpu.coresUsed();
        double processorCores = processorCpu.coresUsed();
        if (failure[0] != null) {
            throw failure[0];
        }
        Wrk.Result wrk = result[0];
        long growth = Math.round(slope(samples) * seconds);
        double tolerance = TOLERANCE_SECONDS * wrk.requestsPerSecond();
        return new Step(target, wrk.requestsPerSecond(), growth, tolerance, keepsUp(growth, target, wrk), gatewayCores,
                processorCores, wrk);
    }

    /**
     * A step is flat when the lag grew by less than {@link #TOLERANCE_SECONDS} of the rate delivered,
     * and the gateway delivered the rate: {@link #DELIVERED} of the target, every answer 2xx, no socket errors.
     */
    static boolean keepsUp(long lagGrowth, double target, Wrk.Result load) {
        return lagGrowth < TOLERANCE_SECONDS * load.requestsPerSecond() && load.requestsPerSecond() >= DELIVERED * target
                && load.non2xx() == 0 && load.errors() == 0;
    }

    /** Least-squares slope of lag against time, in records per second; 0 with fewer than two samples. */
    static double slope(List<double[]> samples) {
        int n = samples.size();
        if (n < 2) {
            return 0;
        }
        double meanT = samples.stream().mapToDouble(s -> s[0]).average().orElse(0);
        double meanLag = samples.stream().mapToDouble(s -> s[1]).average().orElse(0);
        double covariance = 0;
        double variance = 0;
        for (double[] s : samples) {
            covariance += (s[0] - meanT) * (s[1] - meanLag);
            variance += (s[0] - meanT) * (s[0] - meanT);
        }
        return variance == 0 ? 0 : covariance / variance;
    }

    /**
     * Waits (at most {@code maxSeconds}) until the backlog a step left behind is worked off, so the
     * next step starts level; returns the lag it stopped waiting at.
     */
    static long drain(ProcessorLag lag, double records, int maxSeconds) throws Exception {
        long deadline = System.nanoTime() + maxSeconds * 1_000_000_000L;
        long left = lag.records();
        while (left > records && System.nanoTime() < deadline) {
            Thread.sleep(500);
            left = lag.records();
        }
        return left;
    }
}
