package io.sluice.gateway.http;

import io.netty.handler.codec.http.HttpRequest;
import io.sluice.gateway.admit.Admitted;

/**
 * A request's head that {@link Admission} took on, passed down the pipeline in place of the bare
 * head: its route, its project and its reservation travel with it. From here the
 * {@link IngestHandler} holds the reservation (and frees it), {@link BodyLimit} takes the body's
 * bytes into it as they arrive.
 */
record AdmittedHead(Admitted admitted, HttpRequest head) {
}
