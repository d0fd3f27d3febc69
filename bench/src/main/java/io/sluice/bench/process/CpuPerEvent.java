package io.sluice.bench.process;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU per event by component: what each used over the measured interval, less what it burns idle
 * (its rate over the idle interval just before, times the measured interval's length), divided by
 * the events. A component that used less than its idle rate shows a negative figure: the noise of a
 * shared machine, shown as measured.
 *
 * @param microsByComponent µs of CPU per event, in the samples' order
 * @param idleCores         each component's idle rate, in cores (CPU seconds per second)
 * @param events            the events the interval processed
 * @param seconds           the measured interval's length
 */
public record CpuPerEvent(Map<String, Double> microsByComponent, Map<String, Double> idleCores, long events, double seconds) {
    public static CpuPerEvent of(CpuSample idleStart, CpuSample idleEnd, CpuSample start, CpuSample end, long events) {
        double idleSeconds = (idleEnd.nanos() - idleStart.nanos()) / 1e9;
        double measuredSeconds = (end.nanos() - start.nanos()) / 1e9;
        Map<String, Double> micros = new LinkedHashMap<>();
        Map<String, Double> idle = new LinkedHashMap<>();
        for (String component : end.seconds().keySet()) {
            double idleRate = (idleEnd.seconds().get(component) - idleStart.seconds().get(component)) / idleSeconds;
            double used = end.seconds().get(component) - start.seconds().get(component);
            idle.put(component, idleRate);
            micros.put(component, (used - idleRate * measuredSeconds) / events * 1e6);
        }
        return new CpuPerEvent(micros, idle, events, measuredSeconds);
    }

    /** The whole pipeline: every component's figure added up. */
    public double totalMicros() {
        return microsByComponent.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** One process's figure: its components added up (named "process" or "process: part"). */
    public double microsOf(String process) {
        return sumOf(microsByComponent, process);
    }

    /** The cores the whole stack burned idle: every component's idle rate added up. */
    public double idleStackCores() {
        return idleCores.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The cores one process burned idle: its components' idle rates added up. */
    public double idleCoresOf(String process) {
        return sumOf(idleCores, process);
    }

    private static double sumOf(Map<String, Double> byComponent, String process) {
        return byComponent.entrySet().stream()
                .filter(component -> component.getKey().equals(process) || component.getKey().startsWith(process + ": "))
                .mapToDouble(Map.Entry::getValue).sum();
    }
}
