package io.sluice.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** Runs SQL against the test ClickHouse over HTTP and returns the answer as text (TSV). */
public final class ClickHouseQuery {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ClickHouseQuery() {
    }

    public static String run(Engines engines, String sql) {
        return run(engines, sql, java.util.Map.of());
    }

    /** With query parameters: {@code {name:Type}} in the SQL, {@code name → value} here. */
    public static String run(Engines engines, String sql, java.util.Map<String, String> parameters) {
        StringBuilder params = new StringBuilder();
        parameters.forEach((name, value) -> params.append("&param_").append(name).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        String credentials = Base64.getEncoder().encodeToString(
                (engines.clickHouseUser() + ":" + engines.clickHousePassword()).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create(engines.clickHouseUrl() + "/?query="
                        + URLEncoder.encode(sql, StandardCharsets.UTF_8) + params))
                .header("Authorization", "Basic " + credentials)
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("ClickHouse answered " + response.statusCode() + " to " + sql + ": " + response.body());
            }
            return response.body().strip();
        } catch (IOException e) {
            throw new IllegalStateException("ClickHouse unreachable for " + sql, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
