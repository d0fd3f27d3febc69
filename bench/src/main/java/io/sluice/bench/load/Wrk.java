package io.sluice.bench.load;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Drives a URL with wrk (real HTTP/1.1 keep-alive, full request/response each), sending the bodies
 * it is given in turn, and reads its summary.
 */
public final class Wrk {
    private final Path workDir;

    public Wrk(Path workDir) {
        this.workDir = workDir;
    }

    /** One run's result: throughput, latency percentiles (milliseconds), and the requests answered they are of. */
    public record Result(double requestsPerSecond, double p50Millis, double p99Millis, double p999Millis, long non2xx, long errors,
                         long requests) {
    }

    public static void ensureInstalled() throws IOException, InterruptedException {
        if (new ProcessBuilder("sh", "-c", "command -v wrk").start().waitFor() == 0) {
            return;
        }
        System.out.println("· installing wrk (Debian package) …");
        Process install = new ProcessBuilder("apt-get", "install", "-y", "-qq", "wrk").inheritIO().start();
        if (install.waitFor() != 0) {
            throw new IllegalStateException("wrk is needed: apt-get install wrk (as root)");
        }
    }

    /** Warm-up rounds at most, however long the rates keep rising. */
    static final int MAX_WARM_UP_ROUNDS = 8;
    /** A round that answers less than this many times the round before's rate ends the warm-up. */
    static final double WARMING_GAIN = 1.05;

    /**
     * Load before measuring, discarded: the JIT compiles the hot path over a JVM's first seconds to
     * minutes (a gateway five seconds old used 650 µs of CPU a request at 16 connections, 63 µs
     * once warm), and that compiling would otherwise be billed to the first runs. Rounds of half
     * {@code seconds} (at least 3 s) at 64 connections until one is {@link #warm}.
     *
     * @return each round's requests per second
     */
    public List<Double> warmUp(String url, String key, List<byte[]> bodies, int seconds) throws IOException, InterruptedException {
        List<Double> rates = new ArrayList<>();
        do {
            rates.add(run(url, key, bodies, false, 64, Math.max(3, seconds / 2)).requestsPerSecond());
        } while (!warm(rates));
        return rates;
    }

    /** Warm once the last round gained less than {@link #WARMING_GAIN} over the one before, or after the most rounds. */
    static boolean warm(List<Double> rates) {
        int rounds = rates.size();
        return rounds >= MAX_WARM_UP_ROUNDS || rounds >= 2 && rates.get(rounds - 1) < WARMING_GAIN * rates.get(rounds - 2);
    }

    /** The rates of {@link #warmUp}'s rounds, as the terminal shows them. */
    public static String warmUpLine(List<Double> rates) {
        return String.format("%d rounds at 64 connections until one gained under %.0f%%: %s req/s", rates.size(),
                100 * (WARMING_GAIN - 1), String.join(" / ", rates.stream().map(rate -> String.format("%,.0f", rate)).toList()));
    }

    public Result run(String url, String key, List<byte[]> bodies, boolean gzip, int connections, int seconds)
            throws IOException, InterruptedException {
        return run(url, key, bodies, gzip, connections, seconds, 0);
    }

    /**
     * Load at a fixed rate rather than as fast as the connections go: the connections take turns at
     * slots {@code 1/rate} apart (wrk's {@code delay()} hook, timed with the wall clock through
     * LuaJIT's FFI, as wrk itself has no clock for scripts). Slots up to a second late are caught
     * up (wrk's timers are whole milliseconds, and on a busy machine wrk itself waits for a core);
     * later ones are dropped, so a server that cannot keep up shows as a rate below the target
     * rather than as ever larger bursts.
     *
     * <p>Each request carries the next of {@code bodies}, round and round: every request is built
     * once, when wrk starts, so a turn costs wrk a table lookup.
     *
     * @param rate requests per second; 0 for as fast as the connections go
     */
    public Result run(String url, String key, List<byte[]> bodies, boolean gzip, int connections, int seconds, double rate)
            throws IOException, InterruptedException {
        Path bodiesFile = workDir.resolve(gzip ? "bodies-gzip" : "bodies");
        Files.write(bodiesFile, lengthPrefixed(bodies));
        Path script = workDir.resolve(rate > 0 ? "post-paced.lua" : "post.lua");
        Files.writeString(script, """
                wrk.method = "POST"
                wrk.headers["Content-Type"] = "application/json"
                wrk.headers["Authorization"] = "Bearer %s"
                %s
                """.formatted(key, gzip ? "wrk.headers[\"Content-Encoding\"] = \"gzip\"" : "") + readBodies(bodiesFile) + """
                -- One body is wrk's static request (no Lua call per request: wrk keeps a paced rate on a busy machine).
                if #bodies == 1 then
                  wrk.body = bodies[1]
                else
                  local formatted = {}
                  local turn = 0
                  init = function(args)
                    for i, body in ipairs(bodies) do formatted[i] = wrk.format(nil, nil, nil, body) end
                  end
                  request = function()
                    turn = turn % #formatted + 1
                    return formatted[turn]
                  end
                end
                """ + SUMMARY + (rate > 0 ? pacing(rate) : ""));
        return execute(script, url, connections, seconds);
    }

    /**
     * Sentry envelopes sent as {@code @sentry/node} sends them: one at a time, each on a connection of
     * its own ({@code Connection: close}: its transport's agent does not keep connections alive), its
     * body streamed ({@code Transfer-Encoding: chunked}, in one chunk), authenticated by the DSN key in
     * {@code url}'s query. Each carries a new event id in place of {@link Payloads#EVENT_ID}: 16 hex
     * digits of this run, then the request's number in 16. wrk's latency of a request starts when it
     * is written, so the connection's set-up is not in it.
     */
    public Result envelopesOnNewConnections(String url, String envelope, int seconds) throws IOException, InterruptedException {
        Path partsFile = workDir.resolve("envelope-parts");
        List<byte[]> parts = new ArrayList<>();
        for (String part : envelope.split(Pattern.quote(Payloads.EVENT_ID), -1)) {
            parts.add(part.getBytes(StandardCharsets.UTF_8));
        }
        Files.write(partsFile, lengthPrefixed(parts));
        Path script = workDir.resolve("envelope.lua");
        Files.writeString(script, readBodies(partsFile) + """
                local run = "%s"
                local head = nil
                local turn = 0
                request = function()
                  if head == nil then
                    head = "POST " .. wrk.path .. " HTTP/1.1\\r\\nHost: " .. wrk.host .. "\\r\\nConnection: close\\r\\n"
                      .. "Transfer-Encoding: chunked\\r\\n\\r\\n"
                  end
                  turn = turn + 1
                  local body = table.concat(bodies, run .. string.format("%%016x", turn))
                  return head .. string.format("%%x", #body) .. "\\r\\n" .. body .. "\\r\\n0\\r\\n\\r\\n"
                end
                """.formatted(String.format("%016x", new SecureRandom().nextLong())) + SUMMARY);
        return execute(script, url, 1, seconds);
    }

    /** The Lua that reads a file of {@link #lengthPrefixed} bodies into {@code bodies}. */
    private static String readBodies(Path file) {
        return """
                local bodies = {}
                do
                  local f = io.open("%s", "rb"); local data = f:read("*all"); f:close()
                  local at = 1
                  while at <= #data do
                    local newline = data:find("\\n", at, true)
                    local length = tonumber(data:sub(at, newline - 1))
                    bodies[#bodies + 1] = data:sub(newline + 1, newline + length)
                    at = newline + 1 + length
                  end
                end
                """.formatted(file);
    }

    /** The Lua that prints wrk's summary as one line of JSON, read by {@link #summary}. */
    private static final String SUMMARY = """
            done = function(summary, latency, requests)
              local e = summary.errors
              io.write(string.format('{"requests":%d,"duration_us":%d,"non2xx":%d,"errors":%d,"p50":%d,"p99":%d,"p999":%d}\\n',
                summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
                latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
            end
            """;

    private static Result execute(Path script, String url, int connections, int seconds) throws IOException, InterruptedException {
        Process wrk = new ProcessBuilder(List.of("wrk", "-t1", "-c" + connections, "-d" + seconds + "s",
                "--timeout", "5s", "-s", script.toString(), url)).redirectErrorStream(true).start();
        String output = new String(wrk.getInputStream().readAllBytes());
        if (!wrk.waitFor(seconds + 60L, TimeUnit.SECONDS) || wrk.exitValue() != 0) {
            throw new IllegalStateException("wrk failed: " + output);
        }
        return summary(output);
    }

    /** The result in wrk's output: the line {@link #SUMMARY} prints. */
    static Result summary(String output) throws IOException {
        String json = output.lines().filter(line -> line.startsWith("{\"requests\"")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no summary from wrk: " + output));
        JsonNode summary = new ObjectMapper().readTree(json);
        double duration = summary.get("duration_us").asDouble() / 1e6;
        return new Result(summary.get("requests").asDouble() / duration, summary.get("p50").asDouble() / 1000,
                summary.get("p99").asDouble() / 1000, summary.get("p999").asDouble() / 1000,
                summary.get("non2xx").asLong(), summary.get("errors").asLong(), summary.get("requests").asLong());
    }

    /** The bodies one after another, each after its length in bytes and a newline: how the script reads them. */
    private static byte[] lengthPrefixed(List<byte[]> bodies) {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        for (byte[] body : bodies) {
            file.writeBytes((body.length + "\n").getBytes(StandardCharsets.US_ASCII));
            file.writeBytes(body);
        }
        return file.toByteArray();
    }

    /** The Lua of a fixed rate: one thread (-t1), so one schedule shared by all its connections. */
    static String pacing(double rate) {
        return """
                local ffi = require("ffi")
                ffi.cdef[[ typedef struct { long tv_sec; long tv_usec; } sluice_timeval; int gettimeofday(sluice_timeval *tv, void *tz); ]]
                local tv = ffi.new("sluice_timeval")
                local function now_ms() ffi.C.gettimeofday(tv, nil); return tonumber(tv.tv_sec) * 1000 + tonumber(tv.tv_usec) / 1000 end
                local interval_ms = %s
                local next_at = nil
                delay = function()
                  local now = now_ms()
                  if next_at == nil or next_at < now - 1000 then next_at = now end
                  local wait = next_at - now
                  next_at = next_at + interval_ms
                  return math.floor(wait)
                end
                """.formatted(Double.toString(1000.0 / rate));
    }
}
