package io.sluice.e2e.faults;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Clients that send uniquely identified transactions and remember what became of each: a 2xx
 * (acknowledged), a refusal (status, error code, Retry-After, when), a connection refused before
 * anything was sent, or no answer to a request that was sent. And the report a fault test ends
 * with. Each event carries its id as its environment too, so ClickHouse counts it in its own
 * traffic row: how often each single event was counted can be read back, not only a total.
 */
final class Delivery {
    /** {@link #send} when the connection was refused: the request never left the client. */
    static final int NOT_SENT = -1;
    /** {@link #send} when the request was sent and no answer came (reset, closed, timed out). */
    static final int NO_ANSWER = -2;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Pattern ERROR = Pattern.compile("\"error\"\\s*:\\s*\"([a-z_]+)\"");

    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    /** When each acknowledgement came ({@link System#nanoTime()}). */
    final Map<String, Long> acknowledgedAt = new ConcurrentHashMap<>();
    final Set<String> unanswered = ConcurrentHashMap.newKeySet();
    final Set<String> notSent = ConcurrentHashMap.newKeySet();
    /** Refusals by "status error Retry-After: value", e.g. "503 unavailable Retry-After: 1". */
    final Map<String, AtomicInteger> refused = new ConcurrentHashMap<>();
    final Queue<Refusal> refusals = new ConcurrentLinkedQueue<>();
    final AtomicInteger sent = new AtomicInteger();

    /** One refused request: its answer and when it came ({@link System#nanoTime()}). */
    record Refusal(String eventId, int status, String error, String retryAfter, long answeredNanos) {
        String kind() {
            return status + " " + error + " Retry-After: " + retryAfter;
        }
    }

    /** The status of one request with this body (sent is not counted), -1 when the connection failed. */
    static int status(int port, String token, String key, String body) {
        try {
            return HTTP.send(request(port, token, key, body), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    /** Sends one transaction: its status, {@link #NOT_SENT} or {@link #NO_ANSWER}. */
    int send(int port, String token, String key, String eventId) {
        sent.incrementAndGet();
        HttpResponse<String> answer;
        try {
            answer = HTTP.send(request(port, token, key, "{\"event_id\": \"" + eventId + "\", \"transaction\": \"GET /fault\","
                    + " \"environment\": \"" + eventId + "\", \"tags\": {\"http.status_code\": 200}}"), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unanswered.add(eventId);
            return NO_ANSWER;
        } catch (Exception e) {
            if (refusedToConnect(e)) {
                notSent.add(eventId);
                return NOT_SENT;
            }
            unanswered.add(eventId);
            return NO_ANSWER;
        }
        if (answer.statusCode() == 200) {
            acknowledgedAt.put(eventId, System.nanoTime());
            acknowledged.add(eventId);
        } else {
            Matcher error = ERROR.matcher(answer.body());
            Refusal refusal = new Refusal(eventId, answer.statusCode(), error.find() ? error.group(1) : "(no error code)",
                    answer.headers().firstValue("Retry-After").orElse("(none)"), System.nanoTime());
            refusals.add(refusal);
            refused.computeIfAbsent(refusal.kind(), k -> new AtomicInteger()).incrementAndGet();
        }
        return answer.statusCode();
    }

    /** Answers (acknowledgements and refusals) that came after {@code nanos}. */
    long answeredAfter(long nanos) {
        return acknowledgedAt.values().stream().filter(at -> at > nanos).count()
                + refusals.stream().filter(refusal -> refusal.answeredNanos() > nanos).count();
    }

    int refusedCount() {
        return refused.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    private static HttpRequest request(int port, String token, String key, String body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/" + token + "/transaction"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static boolean refusedToConnect(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }

    /**
     * What a fault test reports. Per event id: lost (acknowledged, but not exactly one history row
     * and one count), duplicated (counted more than once, whatever its answer), and of the events
     * that got no answer, how many were stored after all.
     */
    record Report(String fault, int sent, int acknowledged, long found, long lost, long duplicated,
            int notSent, int unanswered, long unansweredStored, String refused) {
        @Override
        public String toString() {
            return "fault: " + fault + " | sent " + sent + ", acknowledged " + acknowledged + ", found in ClickHouse " + found
                    + ", lost " + lost + ", duplicated " + duplicated + " | refused " + refused
                    + " | connection refused (not sent) " + notSent + ", no answer " + unanswered + " (of them stored: " + unansweredStored + ")";
        }
    }
}
