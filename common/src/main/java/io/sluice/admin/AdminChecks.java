package io.sluice.admin;

/** What one server contributes to its admin port: its own health and readiness, read at each request. */
public interface AdminChecks {
    Health health();

    Readiness readiness();
}
