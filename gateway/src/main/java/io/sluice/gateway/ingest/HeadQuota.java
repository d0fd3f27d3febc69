package io.sluice.gateway.ingest;

/** What a request's head takes of its project's quota, for its route's first event (or part). */
public enum HeadQuota {
    /** Its whole quota (project and endpoint): the first event takes nothing more. */
    FIRST_EVENT,
    /** The project's share only: the first event takes its endpoint's. */
    PROJECT,
    /**
     * The project's share for each part (an OTLP span or log record), the head the first's, the
     * door each further part's before reading it: a part's first event takes its endpoint's, each
     * further event both.
     */
    EACH_PART
}
