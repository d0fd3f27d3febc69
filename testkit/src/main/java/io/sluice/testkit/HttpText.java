package io.sluice.testkit;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plain-text reads a test polls while something is down: a metrics scrape, or a query to a
 * ClickHouse at a URL of the test's own (not the shared engines', see {@link ClickHouseQuery}).
 */
public final class HttpText {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpText() {
    }

    /** The body, stripped, or "unreachable": a poll goes on while the server is away. */
    public static String get(String url) {
        HttpResponse<String> response = send(url);
        return response == null ? "unreachable" : response.body().strip();
    }

    /** {@code "<status> <body>"}, the body stripped, or "unreachable": for a health endpoint, whose status is its answer. */
    public static String statusAndBody(String url) {
        HttpResponse<String> response = send(url);
        return response == null ? "unreachable" : response.statusCode() + " " + response.body().strip();
    }

    /** The answer, or null when there was none. */
    private static HttpResponse<String> send(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            return null;
        }
    }

    /** A query's answer (TSV) from the ClickHouse at {@code url}, or "unreachable". */
    public static String query(String url, String sql) {
        return get(url + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8));
    }

    /** The sum of the values of every metric line {@code line} matches (its group 1 is the integer value). */
    public static long sum(String scrape, Pattern line) {
        Matcher matcher = line.matcher(scrape);
        long sum = 0;
        while (matcher.find()) {
            sum += Long.parseLong(matcher.group(1));
        }
        return sum;
    }
}
