package io.sluice.gateway.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.sluice.events.RouteRules;
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.admit.Authenticator;
import io.sluice.gateway.admit.Endpoint;
import io.sluice.gateway.admit.IngestRoute;
import io.sluice.gateway.admit.Rejection;
import io.sluice.gateway.admit.SentryCredentials;
import io.sluice.gateway.admit.SentryEndpoint;
import io.sluice.gateway.admit.SentryRateLimits;
import io.sluice.gateway.envelope.ClientReports;
import io.sluice.gateway.envelope.Envelope;
import io.sluice.gateway.envelope.EventFields;
import io.sluice.gateway.envelope.ItemTypes;
import io.sluice.gateway.validate.AcceptedEvent;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;
import io.sluice.projects.DataScrubbing;
import io.sluice.projects.DsnKey;
import io.sluice.projects.Project;

/**
 * The Sentry SDK endpoints: {@code store} (one event) and {@code envelope} (items). Decodes with
 * the gateway's {@link io.sluice.gateway.validate.BodyDecoder}, validates events and transactions
 * with its {@link io.sluice.gateway.validate.EventValidator}, takes each from the project's quota
 * and publishes them with its {@link io.sluice.gateway.publish.EventPublisher}, exactly as the v1
 * endpoints would: same topics, record and headers. Client reports become outcomes
 * ({@code client_discard:<reason>}); items Sluice does not store are accepted and counted
 * ({@code unsupported_item:<type>}), so an SDK never gets 400 for a kind of item.
 *
 * <p>The answer is 200 only once Kafka acknowledged every published item; a failure is 503 and
 * a retry is safe (the items keep their event ids). Items over quota are not published; an
 * envelope whose events are all over quota gets 429, and any answer with items over quota
 * carries {@code X-Sentry-Rate-Limits}. The answer's {@code id} is that of the first event
 * published, or absent when none was.
 */
final class SentryIngest {
    private static final Logger LOG = LoggerFactory.getLogger(SentryIngest.class);
    private static final Pattern EVENT_ID = Pattern.compile("[0-9a-fA-F]{32}|[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}");

    /** An answer, and whether the connection may stay open after it. */
    record Answer(FullHttpResponse response, boolean keepAlive) {
    }

    private record Routed(Endpoint endpoint, AcceptedEvent event) {
    }

    /**
     * Event payload bytes one event-loop task parses at most (or one item, when larger): an
     * envelope's items are read in such slices, each task queued behind the loop's other work,
     * so a 32 MiB envelope does not hold the loop's other connections for its whole parse.
     */
    static final int SLICE_BYTES = 256 * 1024;

    /** An envelope being read, item by item: what was read so far, on its connection's event loop only. */
    private static final class Reading {
        final Project project;
        final DsnKey key;
        final String origin;
        final long receivedAt;
        final List<Envelope.Item> items;
        final String envelopeId;
        final long events;
        final List<Routed> routed = new ArrayList<>();
        final Map<QualifiedOutcome, Long> counted = new LinkedHashMap<>();
        int overQuota;
        Rejection limited;
        /** The head took one event of the project's quota: the first event item uses it. */
        boolean headTokenLeft = true;

        Reading(Project project, DsnKey key, String origin, long receivedAt, List<Envelope.Item> items, String envelopeId) {
            this.project = project;
            this.key = key;
            this.origin = origin;
            this.receivedAt = receivedAt;
            this.items = items;
            this.envelopeId = envelopeId;
            this.events = items.stream().filter(item -> isEvent(item.type())).count();
        }
    }

    private final GatewayServices services;

    SentryIngest(GatewayServices services) {
        this.services = services;
    }

    /**
     * Never fails: every refusal is an answer (counted, with CORS headers). {@code loop} is the
     * connection's event loop, where an envelope's later slices of items are read.
     */
    CompletableFuture<Answer> handle(Admitted admitted, FullHttpRequest request, long receivedAt, Executor loop) {
        String origin = request.headers().get(HttpHeaderNames.ORIGIN);
        Project project = admitted.project();
        DsnKey key = admitted.dsnKey();
        // A dsn-only envelope's project is known from its path before its dsn is checked: its
        // refusals are counted there (as the head's are), not under no project.
        String token = admitted.token() != null ? admitted.token() : services.gate().tokenOf(request.uri());
        try {
            if (!request.decoderResult().isSuccess()) {
                throw new Rejection(Outcome.BAD_REQUEST, "malformed HTTP request: " + request.decoderResult().cause().getMessage());
            }
            checkContentType(request.headers().get(HttpHeaderNames.CONTENT_TYPE));
            String encoding = request.headers().get(HttpHeaderNames.CONTENT_ENCODING);
            IngestRoute route = admitted.route();
            List<Routed> routed = new ArrayList<>();
            Map<QualifiedOutcome, Long> counted = new LinkedHashMap<>();
            if (route.sentry() == SentryEndpoint.STORE) {
                byte[] json = services.decoder().decode(request.content(), encoding, admitted.reservation());
                EventFields fields = single(EventFields.scan(json));
                Endpoint endpoint = "transaction".equals(fields.type()) ? Endpoint.TRANSACTION : Endpoint.ERROR_REPORT;
                // The project's token was taken from the head; the endpoint's, before the event is parsed.
                Rejection overQuota = services.gate().takeQuota(project, endpoint, true);
                if (overQuota != null) {
                    throw overQuota;
                }
                AcceptedEvent event = services.validator().validate(endpoint, json, receivedAt, routeRules(project),
                        scrubbing(project));
                routed.add(new Routed(endpoint, event));
                return publish(project, key, origin, routed, counted, 0, null, receivedAt, loop);
            } else {
                byte[] body = services.envelopeDecoder().decode(request.content(), encoding, admitted.reservation());
                Envelope envelope = services.envelopes().parse(body);
                String dsn = envelope.headerText("dsn");
                if (dsn != null) {
                    SentryCredentials.Dsn named = SentryCredentials.parseDsn(dsn);
                    if (named.projectId() != route.projectId()) {
                        throw new Rejection(Outcome.BAD_REQUEST, "the envelope's dsn names project " + named.projectId()
                                + ", the path " + route.projectId());
                    }
                    if (project == null) {
                        Authenticator.DsnAuthenticated auth = services.gate().authenticateSentry(route.projectId(),
                                named.publicKey(), admitted.client(), origin);
                        project = auth.project();
                        key = auth.key();
                        token = project.token();
                    } else if (!named.publicKey().equals(key.publicKey())) {
                        throw new Rejection(Outcome.BAD_REQUEST, "the envelope's dsn names another sentry_key than the request");
                    }
                }
                if (project == null) {
                    throw services.gate().missingCredentials(admitted.client());
                }
                Reading reading = new Reading(project, key, origin, receivedAt, envelope.items(),
                        eventId(envelope.headerText("event_id")));
                return readItems(reading, loop);
            }
        } catch (Rejection refused) {
            return CompletableFuture.completedFuture(refuse(token, key, origin, refused));
        } catch (RuntimeException unexpected) {
            // A body this code did not foresee: answer it (and close) rather than drop the connection silently.
            LOG.warn("unexpected failure reading a Sentry request of project {}", token, unexpected);
            Rejection refused = new Rejection(Outcome.BAD_REQUEST, "the request could not be read");
            return CompletableFuture.completedFuture(new Answer(refuse(token, key, origin, refused).response(), false));
        }
    }

    /**
     * Reads the envelope's items, a slice per event-loop task ({@link Slices}), and publishes once
     * all are read. Each event item takes its event of the quota before its payload is parsed: an
     * item over quota costs no parse. Never fails: every refusal is an answer.
     */
    private CompletableFuture<Answer> readItems(Reading reading, Executor loop) {
        return Slices.inSlices(reading.items, item -> isEvent(item.type()) ? item.length() : 0, SLICE_BYTES,
                        item -> read(reading, item), loop)
                .handle((read, error) -> error)
                .thenCompose(error -> {
                    if (error == null) {
                        return publish(reading.project, reading.key, reading.origin, reading.routed, reading.counted,
                                reading.overQuota, reading.limited, reading.receivedAt, loop);
                    }
                    String token = reading.project.token();
                    if (error instanceof Rejection refused) {
                        return CompletableFuture.completedFuture(refuse(token, reading.key, reading.origin, refused));
                    }
                    LOG.warn("unexpected failure reading a Sentry request of project {}", token, error);
                    Rejection refused = new Rejection(Outcome.BAD_REQUEST, "the request could not be read");
                    return CompletableFuture.completedFuture(
                            new Answer(refuse(token, reading.key, reading.origin, refused).response(), false));
                });
    }

    /** Reads one item into {@code reading}. */
    private void read(Reading reading, Envelope.Item item) {
        if (item.type().equals("client_report")) {
            ClientReports.count(item, reading.counted);
            return;
        }
        if (!isEvent(item.type())) {
            reading.counted.merge(ItemTypes.unsupported(item.type()), 1L, Long::sum);
            return;
        }
        Endpoint endpoint = item.type().equals("transaction") ? Endpoint.TRANSACTION : Endpoint.ERROR_REPORT;
        Rejection refused = services.gate().takeQuota(reading.project, endpoint, reading.headTokenLeft);
        reading.headTokenLeft = false;
        if (refused != null) {
            reading.overQuota++;
            reading.limited = merge(reading.limited, refused);
            return;
        }
        byte[] json = item.payload();
        EventFields fields = single(EventFields.scan(json));
        if (reading.envelopeId != null && reading.events == 1 && !fields.hasEventId()) {
            json = fields.withEventId(json, reading.envelopeId);
        }
        reading.routed.add(new Routed(endpoint, services.validator().validate(endpoint, json, reading.receivedAt,
                routeRules(reading.project), scrubbing(reading.project))));
    }

    /**
     * Publishes the items read, each of which took its event of the quota; {@code overQuota}
     * items did not ({@code limited}: their 429, merged). Answers once Kafka acknowledged them all.
     */
    private CompletableFuture<Answer> publish(Project project, DsnKey key, String origin, List<Routed> routed,
                                              Map<QualifiedOutcome, Long> counted, int overQuota, Rejection limited,
                                              long receivedAt, Executor loop) {
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        // The answer names the first event published, not the envelope header's id: that may name
        // another event than the item's, one over quota, or none that Sluice stores.
        String answerId = routed.isEmpty() ? null : routed.get(0).event().eventId();
        String token = project.token();
        int overQuotaItems = overQuota;
        Rejection rateLimits = limited;
        long produceStart = System.nanoTime();
        return send(token, routed, acks, receivedAt, loop).thenCompose(allSent ->
                CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))).handle((ignored, error) -> {
            services.metrics().produced(produceStart);
            if (error != null) {
                LOG.warn("Kafka did not acknowledge every item of envelope {} of project {}: {}", answerId, token, error.toString());
                services.metrics().rejected(Responses.PUBLISH_UNCONFIRMED.outcome());
                services.outcomes().record(token, Responses.PUBLISH_UNCONFIRMED.outcome());
                return new Answer(Cors.apply(Responses.publishUnconfirmed(answerId), key, origin), true);
            }
            for (int i = 0; i < acks.size(); i++) {
                services.outcomes().record(token, Outcome.ACCEPTED);
            }
            for (int i = 0; i < overQuotaItems; i++) {
                services.metrics().rejected(Outcome.QUOTA_EXCEEDED);
                services.outcomes().record(token, Outcome.QUOTA_EXCEEDED);
            }
            counted.forEach((outcome, quantity) -> services.outcomes().record(token, outcome, quantity));
            if (rateLimits != null && acks.isEmpty()) {
                return new Answer(Cors.apply(Responses.sentryError(rateLimits), key, origin), true);
            }
            FullHttpResponse response = Responses.acceptedEnvelope(answerId);
            if (rateLimits != null) {
                response.headers().set(Responses.SENTRY_RATE_LIMITS, rateLimits.sentryRateLimits());
            }
            return new Answer(Cors.apply(response, key, origin), true);
        });
    }

    /**
     * Hands the items to the producer (which copies and compresses each on this thread), a slice
     * per event-loop task as they were read; completes once all were handed.
     */
    private CompletableFuture<Void> send(String token, List<Routed> routed, List<CompletableFuture<Void>> acks, long receivedAt,
                                         Executor loop) {
        return Slices.inSlices(routed, item -> item.event().json().length, SLICE_BYTES, item -> acks.add(services.publisher()
                .publish(new IngestRoute(token, item.endpoint()), item.event(), item.event().json(), receivedAt)), loop);
    }

    /** Both categories' limits in one header value, the later wait for the Retry-After. */
    private static Rejection merge(Rejection earlier, Rejection later) {
        if (earlier == null || earlier.sentryRateLimits().equals(later.sentryRateLimits())) {
            return later;
        }
        Rejection longer = later.retryAfterSeconds() > earlier.retryAfterSeconds() ? later : earlier;
        return new Rejection(longer.outcome(), longer.getMessage(), null, longer.limit(), longer.retryAfterSeconds())
                .withSentryRateLimits(SentryRateLimits.merge(earlier.sentryRateLimits(), later.sentryRateLimits()));
    }

    private Answer refuse(String token, DsnKey key, String origin, Rejection refused) {
        services.metrics().rejected(refused.outcome());
        services.outcomes().record(token, refused.outcome());
        return new Answer(Cors.apply(Responses.sentryError(refused), key, origin), refused.status() < 500);
    }

    /** A {@code store} body's project is known from its head; an envelope's by the time its events are read. */
    private static DataScrubbing scrubbing(Project project) {
        return project == null ? DataScrubbing.DEFAULT : project.dataScrubbing();
    }

    private static EventFields single(EventFields fields) {
        if (fields.trailingContent()) {
            throw new Rejection(Outcome.INVALID_JSON, "an event must be one JSON object; something follows it");
        }
        return fields;
    }

    private static boolean isEvent(String type) {
        return type.equals("event") || type.equals("transaction");
    }

    /** The envelope header's event id as 32 hex digits, or null when it has none that is valid. */
    private static String eventId(String text) {
        if (text == null || !EVENT_ID.matcher(text.strip()).matches()) {
            return null;
        }
        return text.strip().replace("-", "").toLowerCase(Locale.ROOT);
    }

    /**
     * Envelopes as SDKs send them: application/x-sentry-envelope, application/json,
     * text/plain (browsers, to avoid a preflight), application/octet-stream or none.
     */
    private static void checkContentType(String contentType) {
        String mediaType = contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        switch (mediaType) {
            case "", "application/x-sentry-envelope", "application/json", "text/plain", "application/octet-stream" -> {
            }
            default -> throw new Rejection(Outcome.UNSUPPORTED_MEDIA_TYPE, "Content-Type must be application/x-sentry-envelope, "
                    + "application/json or text/plain, got '" + contentType + "'");
        }
    }

    /** The project's route rules; none while its project is not known (it always is by the time events are read). */
    private static RouteRules routeRules(Project project) {
        return project == null ? RouteRules.NONE : project.routeRules();
    }
}
