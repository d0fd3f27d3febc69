package io.sluice.cli;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import com.clickhouse.client.api.Client;

/**
 * {@code ./sluice send-test-event}: the rollout's "send a control event". Sends one error report
 * and one transaction, then reads each back from ClickHouse, printing every step and a verdict.
 */
final class TestEventCheck {
    private static final Duration ARRIVAL = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Client clickHouse;
    private final String database;
    private final PrintStream out;

    TestEventCheck(Client clickHouse, String database, PrintStream out) {
        this.clickHouse = clickHouse;
        this.database = database;
        this.out = out;
    }

    /** @return true when both events arrived */
    boolean run(String gatewayUrl, String token, String key) throws InterruptedException {
        String errorId = UUID.randomUUID().toString().replace("-", "");
        String transactionId = UUID.randomUUID().toString().replace("-", "");
        String now = Instant.now().toString();
        boolean sent = send(gatewayUrl, token, key, "project", "a test error report",
                "{\"event_id\": \"" + errorId + "\", \"timestamp\": \"" + now + "\", \"environment\": \"sluice-test\","
                        + " \"sdk\": {\"name\": \"sluice-cli\", \"version\": \"1\"}, \"exception\": {\"values\": [{\"type\": "
                        + "\"SluiceTestEvent\", \"value\": \"control event sent by ./sluice send-test-event\"}]}}")
                && send(gatewayUrl, token, key, "transaction", "a test transaction",
                "{\"event_id\": \"" + transactionId + "\", \"sent_at\": \"" + now + "\", \"transaction\": \"GET /sluice-test\","
                        + " \"environment\": \"sluice-test\", \"tags\": {\"http.status_code\": 200},"
                        + " \"sdk\": {\"name\": \"sluice-cli\", \"version\": \"1\"}}");
        if (!sent) {
            out.println("FAIL: the gateway did not accept the test events (see above).");
            return false;
        }
        boolean arrived = arrived("the error report in " + database + ".errors", "errors", errorId)
                && arrived("the transaction in " + database + ".transactions", "transactions", transactionId);
        out.println(arrived ? "PASS: events reach ClickHouse for project " + token + ". Enable reporting for production traffic."
                : "FAIL: accepted, but not in ClickHouse within " + ARRIVAL.toSeconds() + " s: is the processor running? "
                + "(./sluice dev starts it; its /readyz is on 127.0.0.1:8082)");
        return arrived;
    }

    private boolean send(String gatewayUrl, String token, String key, String endpoint, String what, String json) {
        out.print("· sending " + what + " … ");
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                            URI.create(gatewayUrl + "/api/v1/" + token + "/" + endpoint))
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(10))
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                out.println("✓ accepted " + response.body());
                return true;
            }
            out.println("✗ " + response.statusCode() + " " + response.body());
            return false;
        } catch (Exception e) {
            out.println("✗ gateway unreachable at " + gatewayUrl + " (" + e.getClass().getSimpleName() + ")");
            return false;
        }
    }

    private boolean arrived(String what, String table, String eventId) throws InterruptedException {
        out.print("· waiting for " + what + " … ");
        long start = System.nanoTime();
        long deadline = start + ARRIVAL.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                long found = clickHouse.queryAll("SELECT count() AS found FROM " + database + "." + table
                        + " WHERE event_id = {id:String}", Map.of("id", eventId)).get(0).getLong("found");
                if (found > 0) {
                    out.printf("✓ there after %.1f s%n", (System.nanoTime() - start) / 1e9);
                    return true;
                }
            } catch (RuntimeException clickHouseNotThereYet) {
                // keep trying until the deadline
            }
            Thread.sleep(250);
        }
        out.println("✗ not there");
        return false;
    }
}
