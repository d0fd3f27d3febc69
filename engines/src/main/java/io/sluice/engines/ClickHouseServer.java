package io.sluice.engines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real ClickHouse server (26.7) in a child process: clickhouse-local from chdb, listening on
 * loopback for HTTP and the native protocol. Data stays in {@code dataDir} across restarts.
 */
public final class ClickHouseServer implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    /** Keeps clickhouse-local alive and serving: one row every 0.2 s for about six years. */
    private static final String SERVE_FOREVER = "SYSTEM START LISTEN HTTP; SYSTEM START LISTEN TCP; "
            + "SELECT sleepEachRow(0.2) FROM numbers(1000000000) SETTINGS max_block_size=1 FORMAT Null";

    private final Process process;
    private final int httpPort;
    private final int tcpPort;
    private final Path log;

    private ClickHouseServer(Process process, int httpPort, int tcpPort, Path log) {
        this.process = process;
        this.httpPort = httpPort;
        this.tcpPort = tcpPort;
        this.log = log;
    }

    /** Starts the server and returns once it answers {@code /ping}. */
    public static ClickHouseServer start(ChdbDistribution chdb, Path dataDir, int httpPort, int tcpPort, Path log) {
        Ports.requireFree(httpPort, "ClickHouse HTTP");
        Ports.requireFree(tcpPort, "ClickHouse native");
        try {
            Files.createDirectories(dataDir);
            Files.createDirectories(log.getParent());
            Process process = new ProcessBuilder(List.of(
                    chdb.launcher().toString(), chdb.library().toString(),
                    "--path=" + dataDir.toAbsolutePath(),
                    "--listen_host=127.0.0.1",
                    "--http_port=" + httpPort,
                    "--tcp_port=" + tcpPort,
                    "--query", SERVE_FOREVER))
                    .directory(dataDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            ClickHouseServer server = new ClickHouseServer(process, httpPort, tcpPort, log);
            server.awaitPing();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start ClickHouse on port " + httpPort + " (log: " + log + ")", e);
        }
    }

    public String httpUrl() {
        return "http://127.0.0.1:" + httpPort;
    }

    public int httpPort() {
        return httpPort;
    }

    public int tcpPort() {
        return tcpPort;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    private void awaitPing() throws IOException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest ping = HttpRequest.newBuilder(URI.create(httpUrl() + "/ping")).timeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("ClickHouse exited with code " + process.exitValue() + ": " + tail(log));
            }
            try {
                if (http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYetListening) {
                // keep polling until the deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new IOException("interrupted while waiting for ClickHouse", e);
            }
            sleep(100);
        }
        close();
        throw new IOException("ClickHouse did not answer /ping within " + START_TIMEOUT.toSeconds() + " s: " + tail(log));
    }

    /** SIGTERM (ClickHouse's own graceful stop), then SIGKILL if it does not exit in time. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
