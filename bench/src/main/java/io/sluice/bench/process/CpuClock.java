package io.sluice.bench.process;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * One process's CPU so far, split into components by its threads' names: each thread is charged to
 * the first component one of whose prefixes its name starts with; what no component claims (GC, the
 * JIT, threads that exited) is the process's "other", its total less the named threads. A process
 * without components is one figure under its own name.
 */
public final class CpuClock {
    /** A part of a process, known by its threads' name prefixes (as {@code /proc} shows them: 15 characters at most). */
    public record Component(String name, List<String> prefixes) {
        boolean owns(String thread) {
            return prefixes.stream().anyMatch(thread::startsWith);
        }
    }

    private final String process;
    private final List<Component> components;
    private final Supplier<List<ProcStat>> threads;
    private final DoubleSupplier totalSeconds;

    public CpuClock(String process, List<Component> components, Supplier<List<ProcStat>> threads, DoubleSupplier totalSeconds) {
        this.process = process;
        this.components = List.copyOf(components);
        this.threads = threads;
        this.totalSeconds = totalSeconds;
    }

    /** A process of this machine, read from {@code /proc}. */
    public static CpuClock of(String process, long pid, List<Component> components) {
        return new CpuClock(process, components, () -> ProcStat.threads(pid), () -> ProcStat.process(pid).seconds());
    }

    /**
     * This JVM, by its threads' full names (the JMX thread CPU clock; {@code /proc} cuts names to 15
     * characters), its total from {@code /proc/self/stat}.
     */
    public static CpuClock ofThisJvm(String process, List<Component> components) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long pid = ProcessHandle.current().pid();
        return new CpuClock(process, components, () -> {
            List<ProcStat> live = new ArrayList<>();
            for (ThreadInfo thread : threads.getThreadInfo(threads.getAllThreadIds())) {
                long nanos = thread == null ? -1 : threads.getThreadCpuTime(thread.getThreadId());
                if (nanos >= 0) { // -1: exited meanwhile
                    live.add(new ProcStat(thread.getThreadName(), Math.round(nanos * ProcStat.TICKS_PER_SECOND / 1e9)));
                }
            }
            return live;
        }, () -> ProcStat.process(pid).seconds());
    }

    /** CPU seconds so far by component, in the order declared, then the process's other. */
    public Map<String, Double> read() {
        double total = totalSeconds.getAsDouble();
        Map<String, Double> seconds = new LinkedHashMap<>();
        components.forEach(component -> seconds.put(component.name(), 0.0));
        double named = 0;
        for (ProcStat thread : threads.get()) {
            for (Component component : components) {
                if (component.owns(thread.name())) {
                    seconds.merge(component.name(), thread.seconds(), Double::sum);
                    named += thread.seconds();
                    break;
                }
            }
        }
        seconds.put(components.isEmpty() ? process : process + ": other (GC, JIT, the rest)", total - named);
        return seconds;
    }
}
