package io.sluice.gateway.http;

import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.ingest.IngestRoute;
import io.sluice.gateway.ingest.Rejection;

/**
 * A request refused whole before its door read it, passed down the pipeline to be answered in its
 * turn (answers go out in request order); the connection closes after its answer.
 *
 * @param route      its route, or null when its path names none (or its head could not be read)
 * @param token      the project its refusal is counted under, or null
 * @param admitted   the admission it was refused after (while its body arrived), or null when its head was refused
 * @param caller     who sent it, as its head tells: the door answers in the request's encoding
 * @param startNanos when it was refused, for the answer's latency
 */
record RefusedRequest(IngestRoute route, String token, Admitted admitted, Rejection reason, FrontDoor.Caller caller,
                      long startNanos) {
    /** Its route's name in metrics: {@code other} when it has none. */
    String endpoint() {
        return route == null ? "other" : route.name();
    }
}
