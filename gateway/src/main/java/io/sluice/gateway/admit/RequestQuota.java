package io.sluice.gateway.admit;

import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.ingest.HeadQuota;
import io.sluice.gateway.ingest.IngestRoute;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.projects.Project;

/**
 * What one request takes of its project's quota, decided here alone: from its head what its
 * route says ({@link HeadQuota}), whatever becomes of the request (one over the quota holds no
 * memory and its body is never read); then, before each part (an OTLP span or log record) is
 * decoded and each event's payload parsed, what the head did not take. An event filtered once
 * read gives back what it took. One per request, used by one thread at a time.
 */
public final class RequestQuota {
    private final QuotaLimiter quotas;
    private final Project project;
    private final HeadQuota head;
    private boolean firstEvent = true;
    /** The part of the event taken last; negative before any. */
    private int lastPart = -1;

    private RequestQuota(QuotaLimiter quotas, Project project, HeadQuota head) {
        this.quotas = quotas;
        this.project = project;
        this.head = head;
    }

    /** Takes what a request of {@code route} takes from its head; throws the 429 when it is over the quota. */
    static RequestQuota takenAtHead(QuotaLimiter quotas, Project project, IngestRoute route) {
        if (route.headQuota() == HeadQuota.FIRST_EVENT) {
            quotas.admit(project, route.endpoint(), System.nanoTime());
        } else {
            Rejection overQuota = quotas.takeProject(project, System.nanoTime());
            if (overQuota != null) {
                throw overQuota;
            }
        }
        return new RequestQuota(quotas, project, route.headQuota());
    }

    /**
     * Takes the project's share of a part (an OTLP span or log record) before it is decoded, its
     * kind and events not known yet: none for the first, whose share the head took.
     *
     * @param part the part's number in its request, from 0
     * @return null once taken, or the 429
     */
    public Rejection takePart(int part) {
        return part == 0 ? null : quotas.takeProject(project, System.nanoTime());
    }

    /**
     * Takes one event of {@code endpoint}, what of it its head (or its part) did not take: nothing
     * for a v1 request's one event, the endpoint's share for a Sentry request's first event and for
     * a part's first event, both shares for any other.
     *
     * @param part the event's part's number, from 0; negative when the request has no parts
     * @return null once taken, or the 429 (with X-Sentry-Rate-Limits)
     */
    public Rejection takeEvent(Endpoint endpoint, int part) {
        boolean first = firstEvent;
        boolean newPart = part != lastPart;
        firstEvent = false;
        lastPart = part;
        if (first && head == HeadQuota.FIRST_EVENT) {
            return null;
        }
        boolean projectTaken = head == HeadQuota.PROJECT ? first : head == HeadQuota.EACH_PART && newPart;
        return projectTaken ? quotas.tryAdmitEndpoint(project, endpoint, System.nanoTime())
                : quotas.tryAdmit(project, endpoint, System.nanoTime());
    }

    /**
     * Gives back the project's and the endpoint's event that an event took, wherever it took them
     * (its head, its part or {@link #takeEvent}): an event filtered once read takes no quota.
     */
    public void giveBack(Endpoint endpoint) {
        quotas.giveBack(project, endpoint, System.nanoTime());
    }
}
