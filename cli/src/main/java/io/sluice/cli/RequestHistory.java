package io.sluice.cli;

import java.util.List;
import java.util.Map;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;

/**
 * "The last requests of a project", optionally of one route or status code: the history page's
 * query (the Grafana panel's is the same shape). Its window is the time of the newest
 * {@link #WINDOW_PER_ROW} × limit matching rows, found by reading the sort key
 * {@code (project, timestamp, event_id)} newest first and stopping there, so the read is bounded by
 * that window, not by a day under {@code FINAL}; within it a row a sink retry stored twice shows
 * once ({@code LIMIT 1 BY event_id}). Duplicates only ever shorten the answer, never repeat a row.
 */
public final class RequestHistory {
    /** Rows read per row shown: a sink retry stores a batch twice, rarely three times. */
    static final int WINDOW_PER_ROW = 10;

    private final Client clickHouse;
    private final String db;

    public RequestHistory(Client clickHouse, String database) {
        this.clickHouse = clickHouse;
        this.db = database;
    }

    /**
     * @param route  a route ({@code GET /users/{id}}), or empty for every route
     * @param status a status code, or 0 for every code
     */
    public List<GenericRecord> last(String project, int limit, String route, int status) {
        return clickHouse.queryAll(sql(db), Map.of("project", project, "limit", limit, "window", limit * WINDOW_PER_ROW,
                "route", route, "status", status));
    }

    /** The query, with parameters project, route ('' for all), status (0 for all), limit and window. */
    public static String sql(String database) {
        String matching = "project = {project:String} AND ({route:String} = '' OR route = {route:String}) "
                + "AND ({status:UInt16} = 0 OR status_code = {status:UInt16})";
        return "SELECT toUnixTimestamp64Milli(timestamp) AS t, event_id, environment, route, method, path, transaction, "
                + "ifNull(toString(status_code), '-') AS status, duration_ms "
                + "FROM " + database + ".transactions "
                + "WHERE " + matching + " AND timestamp >= (SELECT min(timestamp) FROM (SELECT timestamp FROM " + database
                + ".transactions WHERE " + matching + " ORDER BY timestamp DESC LIMIT {window:UInt32})) "
                + "ORDER BY timestamp DESC LIMIT 1 BY event_id LIMIT {limit:UInt32}";
    }
}
