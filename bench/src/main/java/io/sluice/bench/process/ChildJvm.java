package io.sluice.bench.process;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The gateway or the processor in a JVM of its own (so its memory and CPU are its own), on this
 * JVM's class path, configured by environment variables, logging to a file.
 */
public final class ChildJvm implements AutoCloseable {
    /** The heap every child gets (-Xmx). */
    public static final long HEAP_MB = 512;
    private final Process process;
    private final Path log;

    private ChildJvm(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** @param recording where to write a JFR profile when the child exits, if at all */
    public static ChildJvm start(Class<?> mainClass, Map<String, String> env, Path log, Optional<Path> recording, PrintStream out)
            throws IOException {
        return start(mainClass, env, log, recording, out, HEAP_MB);
    }

    /** @param heapMb its -Xmx, in MiB */
    public static ChildJvm start(Class<?> mainClass, Map<String, String> env, Path log, Optional<Path> recording, PrintStream out,
                          long heapMb) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> commandLine = new ArrayList<>(List.of(java, "-Xmx" + heapMb + "m", "-XX:+UseG1GC"));
        if (recording.isPresent()) {
            // The "profile" settings sample every thread's stack every 10–20 ms; written when the child exits.
            // JDK 25 and newer can also sample by CPU time (also in native code and syscalls): far more accurate.
            String cpuTime = Runtime.version().feature() >= 25 ? ",jdk.CPUTimeSample#enabled=true" : "";
            commandLine.add("-XX:StartFlightRecording=settings=profile" + cpuTime + ",filename=" + recording.get());
            out.println("  recording " + recording.get());
        }
        commandLine.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
        ProcessBuilder builder = new ProcessBuilder(commandLine);
        // The children log through the same settings as the server (Logback, see the CLI's LogSettings):
        // warnings only, so the log file shows what went wrong and not every start-up line.
        builder.environment().put("SLUICE_LOG_LEVEL", "warn");
        builder.environment().putAll(env);
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        return new ChildJvm(builder.start(), log);
    }

    /** Waits up to a minute for the admin port's {@code /readyz} to answer 200. */
    public void awaitReady(int adminPort) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 600; i++) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/readyz")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the gateway did not become ready");
    }

    /** Asks the child for a full GC ({@code jcmd GC.run}) and waits for it: then its heap is what it holds. */
    public void fullGc() throws IOException, InterruptedException {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        Process gc = new ProcessBuilder(jcmd, Long.toString(process.pid()), "GC.run").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        gc.waitFor(60, TimeUnit.SECONDS);
    }

    /** Peak resident memory (VmHWM), in KiB. */
    public long peakRssKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        return -1;
    }

    /**
     * CPU time the child has used so far, all its threads, user and system ({@code /proc/<pid>/stat}
     * utime + stime, read by the JDK), in seconds; NaN where the platform does not tell.
     */
    double cpuSeconds() {
        return process.toHandle().info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path log() {
        return log;
    }

    /** SIGTERM, so the child shuts down cleanly (and writes its JFR recording). */
    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
