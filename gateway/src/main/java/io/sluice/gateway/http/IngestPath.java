package io.sluice.gateway.http;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.ingest.IngestRoute;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.admit.SentryRateLimits;
import io.sluice.gateway.publish.RecordFault;
import io.sluice.gateway.validate.AcceptedEvent;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

/**
 * The one ingest path every front door feeds (Relay's shape): the request's {@link FrontDoor}
 * reads it into {@link Item}s; here, for every door alike, each event goes through the path's
 * {@link EventCheck} (its quota before its payload is parsed, one over quota counted at no parse;
 * filtered, giving its quota back; validated), the same step the OTLP door runs on each span's
 * events as it maps them (its items are then events already checked, {@link Item.Accepted}),
 * and is published; what is not an event is counted; the outcomes are recorded ({@link OutcomeRecorder}); and the
 * door writes its answer once Kafka acknowledged every event published. Items are read and
 * published a slice of {@link #SLICE_BYTES} per event-loop task ({@link Slices}), so a large
 * request does not hold its loop's other connections. Never fails: every refusal is an answer.
 *
 * <p>A request whose connection closed is dropped, not read further nor published, and counted as
 * {@link Outcome#CLIENT_GONE}: checked before it is read on a worker, before each item is taken
 * and before each event is published. Its client may have timed out and be retrying: publishing
 * it would store and count its events twice. A connection that closes once an event is handed to
 * the producer cannot be told apart from one that closes before the answer: that event stays published.
 *
 * <p>Once the gateway's drain timeout passed, the read workers stop ({@link ReadWorkers#stop}): a
 * request on them, waiting or being read, is answered {@code 503 shutting_down} before anything of
 * it is published, so its retry is safe; checked before it is read, before each item and once taken.
 *
 * <p>A new door plugs in with its route (an {@link IngestRoute} record, which carries its rules and
 * its {@link io.sluice.gateway.ingest.Door}), a {@link FrontDoor}, and the line of {@link FrontDoors}
 * that builds the one for the other.
 */
final class IngestPath {
    private static final Logger LOG = LoggerFactory.getLogger(IngestPath.class);

    /**
     * Event payload bytes one event-loop task parses at most (or one item, when larger): a
     * request's items are read in such slices, each task queued behind the loop's other work,
     * so a 32 MiB envelope does not hold the loop's other connections for its whole parse.
     */
    static final int SLICE_BYTES = 256 * 1024;

    /** An answer, and whether the connection may stay open after it. */
    record Answer(FullHttpResponse response, boolean keepAlive) {
    }

    private record Taken(Endpoint endpoint, AcceptedEvent event) {
    }

    private final GatewayServices services;
    private final FrontDoors doors;
    private final OutcomeRecorder recorder;

    /** Shared by every connection: it holds no request's state. */
    IngestPath(GatewayServices services) {
        this.services = services;
        this.doors = new FrontDoors(services);
        this.recorder = new OutcomeRecorder(services);
    }

    /**
     * Handles a request admitted from its head, on its connection's event loop (where its answer
     * is completed and its events published). Takes the request: releases it once read.
     * A body whose reading would hold the loop for long ({@link #readsLong}) is read and
     * its items taken on a {@link ReadWorkers} thread; any other on the loop, a slice of items per task.
     */
    CompletableFuture<Answer> handle(Admitted admitted, FullHttpRequest request, long receivedAt, Channel connection) {
        FrontDoor door = doors.of(admitted.route());
        FrontDoor.Caller caller = FrontDoor.Caller.of(admitted, request);
        // A dsn-only envelope's project is known from its path before its dsn is checked: its
        // refusals are counted there (as the head's are), not under no project.
        String token = admitted.token() != null ? admitted.token() : services.gate().tokenOf(admitted.route());
        CompletableFuture<Answer> answer;
        try {
            answer = answered(door, caller, token, admitted, request, receivedAt, connection);
        } catch (Throwable unforeseen) {
            answer = CompletableFuture.failedFuture(unforeseen);
        }
        return answer.exceptionally(unforeseen -> unforeseen(door, token, caller, unforeseen));
    }

    /**
     * The answer to a failure no code foresaw (an Error from the producer, a bug in a door): 503 as a
     * publish not confirmed, since some of its events may have been handed to Kafka, and the
     * connection closes. Without it the request would go unanswered and hold its reservation.
     */
    private Answer unforeseen(FrontDoor door, String token, FrontDoor.Caller caller, Throwable unforeseen) {
        LOG.error("unexpected failure handling a request of project {}: answered 503", token, unforeseen);
        recorder.refused(token, Responses.PUBLISH_UNCONFIRMED);
        return new Answer(door.refusal(Responses.PUBLISH_UNCONFIRMED, caller), false);
    }

    private CompletableFuture<Answer> answered(FrontDoor door, FrontDoor.Caller caller, String token, Admitted admitted,
                                               FullHttpRequest request, long receivedAt, Channel connection) {
        if (request.decoderResult().isSuccess() && services.readers() != null && readsLong(admitted.route(), request)) {
            return readOffTheLoop(door, admitted, request, receivedAt, connection, token, caller);
        }
        FrontDoor.Items items;
        try {
            if (!request.decoderResult().isSuccess()) {
                throw new Rejection(Outcome.BAD_REQUEST, "malformed HTTP request: " + request.decoderResult().cause().getMessage());
            }
            items = door.read(admitted, request, receivedAt);
        } catch (RuntimeException refused) {
            return CompletableFuture.completedFuture(refuse(door, token, caller, refused));
        } finally {
            request.release();
        }
        return take(door, items, receivedAt, connection);
    }

    /**
     * Reads the request and takes all its items on a read worker, then publishes and answers on the
     * loop. When the workers stop (the drain timeout passed) before it is handed back to the loop,
     * waiting or under way, it is answered {@code 503 shutting_down}, nothing of it published.
     */
    private CompletableFuture<Answer> readOffTheLoop(FrontDoor door, Admitted admitted, FullHttpRequest request, long receivedAt,
                                                     Channel connection, String token, FrontDoor.Caller caller) {
        Executor loop = connection.eventLoop();
        CompletableFuture<Object> read = new CompletableFuture<>(); // the items taken, or the answer refusing them
        try {
            // A request not authenticated yet (its dsn is in its body) waits in the strangers' turn, not its path's project's.
            services.readers().execute(new ReadWorkers.Read(admitted.project() == null ? null : token, () -> {
                FrontDoor.Items items = null;
                try {
                    requireOpen(connection); // it may have waited long in the queue
                    requireReading();
                    items = door.read(admitted, request, receivedAt);
                    Taking taking = new Taking(items, receivedAt, connection);
                    for (Item item : items.items()) {
                        requireReading(); // once the workers stop, a read under way ends at its next item
                        taking.take(item);
                    }
                    requireReading(); // nothing of it is published: its 503 is safe to retry
                    read.complete(taking);
                } catch (Throwable refused) { // whatever it is, the request is answered, not left hanging
                    read.complete(items == null ? refuse(door, token, caller, refused)
                            : refuse(door, items.project().token(), items.caller(), refused));
                } finally {
                    request.release();
                }
            }, () -> { // the gateway stopped reading (its drain timeout passed) before a worker reached it
                request.release();
                read.complete(refuse(door, token, caller, connection.isActive() ? stoppedReading() : gone()));
            }));
        } catch (RejectedExecutionException full) {
            request.release();
            return CompletableFuture.completedFuture(refuse(door, token, caller, new Rejection(Outcome.OVERLOADED,
                    "the gateway is reading as many large or compressed bodies as it may (" + full.getMessage() + "); retry later")));
        }
        return read.thenComposeAsync(result -> result instanceof Taking taking ? publish(door, taking, connection)
                : CompletableFuture.completedFuture((Answer) result), loop);
    }

    /**
     * Whether reading this request (decoding, parsing its items) may hold an event loop for long:
     * then it is read on a {@link ReadWorkers} thread. A body larger than {@link #SLICE_BYTES} as
     * sent, any body of a route read whole in one task ({@link IngestRoute#everyBodyReadsLong}: an
     * OTLP export), or a compressed one of a route whose compressed bodies may hold many items
     * ({@link IngestRoute#compressedReadsLong}: a Collector's gzip export of 8,192 spans is about
     * 600 KiB sent, 4 MiB decompressed).
     */
    static boolean readsLong(IngestRoute route, FullHttpRequest request) {
        if (route.everyBodyReadsLong() || request.content().readableBytes() > SLICE_BYTES) {
            return true;
        }
        String encoding = request.headers().get(HttpHeaderNames.CONTENT_ENCODING);
        return route.compressedReadsLong() && encoding != null && !encoding.isBlank()
                && !encoding.strip().equalsIgnoreCase("identity");
    }

    /** Takes the items on the loop, a slice per task, then publishes the events taken. */
    private CompletableFuture<Answer> take(FrontDoor door, FrontDoor.Items items, long receivedAt, Channel connection) {
        Taking taking = new Taking(items, receivedAt, connection);
        return Slices.inSlices(items.items(), Item::bytes, SLICE_BYTES, taking::take, connection.eventLoop())
                .handle((read, error) -> error)
                .thenCompose(error -> error == null ? publish(door, taking, connection)
                        : CompletableFuture.completedFuture(refuse(door, items.project().token(), items.caller(), error)));
    }

    /** A request's items being taken, in order: on its connection's event loop only. */
    private final class Taking {
        final FrontDoor.Items items;
        final EventCheck check;
        final long receivedAt;
        final Channel connection;
        final List<Taken> events = new ArrayList<>();
        final Map<QualifiedOutcome, Long> counted = new LinkedHashMap<>();
        int overQuota;
        /** The 429 of the events over quota, merged; null while none was. */
        Rejection limited;
        /** Items refused alone, the request's others standing. */
        final List<Rejection> refusedAlone = new ArrayList<>();
        /** The parts ({@link Item.Event#part}) of which an item was refused or over quota. */
        final BitSet rejectedParts = new BitSet();

        /** Events not published because their connection closed first. */
        int gone;

        Taking(FrontDoor.Items items, long receivedAt, Channel connection) {
            this.items = items;
            this.check = new EventCheck(services, items.admitted(), receivedAt);
            this.receivedAt = receivedAt;
            this.connection = connection;
        }

        void take(Item item) {
            requireOpen(connection); // no quota taken, nothing parsed, for a client that left
            counted(item instanceof Item.Event event ? check.check(event) : item);
        }

        /** An item as it stands once its event, if it is one, went through the path's check. */
        private void counted(Item item) {
            if (item instanceof Item.Counted counts) {
                counts.addTo().accept(counted);
            } else if (item instanceof Item.Refused refusal) {
                refusedAlone.add(refusal.refusal());
                rejected(refusal.part());
            } else if (item instanceof Item.OverQuota over) {
                overQuota(over.limit(), over.part());
            } else if (item instanceof Item.Accepted accepted) {
                events.add(new Taken(accepted.endpoint(), accepted.event()));
                if (accepted.event().invalidSampleRateAt() != null) {
                    counted.merge(QualifiedOutcome.of(Outcome.INVALID_SAMPLE_RATE, accepted.event().invalidSampleRateAt()), 1L,
                            Long::sum);
                }
            }
        }

        private void overQuota(Rejection refused, int part) {
            overQuota++;
            limited = merge(limited, refused);
            rejected(part);
        }

        private void rejected(int part) {
            if (part != Item.NO_PART) {
                rejectedParts.set(part);
            }
        }
    }

    /**
     * Hands the events taken to the producer (which copies and compresses each on this thread), a
     * slice per event-loop task; answers once Kafka acknowledged them all.
     */
    private CompletableFuture<Answer> publish(FrontDoor door, Taking taking, Channel connection) {
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        // The answer names the first event published, not an envelope header's id: that may name
        // another event than the item's, one over quota, or none that Sluice stores.
        String firstId = taking.events.isEmpty() ? null : taking.events.get(0).event().eventId();
        String token = taking.items.project().token();
        FrontDoor.Caller caller = taking.items.caller();
        long produceStart = System.nanoTime();
        return Slices.inSlices(taking.events, taken -> taken.event().json().length, SLICE_BYTES, taken -> {
                    if (!connection.isActive()) {
                        taking.gone++;
                        return;
                    }
                    acks.add(services.publisher().publish(token, taken.endpoint(), taken.event(), taken.event().json(),
                            taking.receivedAt));
                }, connection.eventLoop())
                .thenCompose(allSent -> CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)))
                .handle((ignored, error) -> {
                    if (!acks.isEmpty()) {
                        services.metrics().produced(produceStart);
                    }
                    if (error != null && RecordFault.isRecords(error)) {
                        Rejection refused = RecordFault.refusal(error);
                        recorder.refused(token, refused);
                        return new Answer(door.refusal(refused, caller), true);
                    }
                    if (error != null) {
                        LOG.warn("Kafka did not acknowledge every event of a request of project {} (the first {}): {}",
                                token, firstId, error.toString());
                        recorder.refused(token, Responses.PUBLISH_UNCONFIRMED);
                        return new Answer(door.answer(handled(taking, firstId, acks.size(), true), caller), true);
                    }
                    recorder.accepted(token, acks.size());
                    recorder.gone(token, taking.gone);
                    recorder.overQuota(token, taking.overQuota);
                    recorder.counted(token, taking.counted);
                    taking.refusedAlone.forEach(refusal -> recorder.refused(token, refusal));
                    return new Answer(door.answer(handled(taking, firstId, acks.size(), false), caller), true);
                });
    }

    /** Throws the refusal of a request whose connection closed: its client is gone, or retrying. */
    private static void requireOpen(Channel connection) {
        if (!connection.isActive()) {
            throw gone();
        }
    }

    private static Rejection gone() {
        return new Rejection(Outcome.CLIENT_GONE, "the client closed its connection before its request was published");
    }

    /**
     * Throws the refusal of a request on a read worker once the workers stopped (the gateway's
     * drain timeout passed): it was not handed on to be published.
     */
    private void requireReading() {
        if (services.readers() instanceof ReadWorkers workers && workers.stopped()) {
            throw stoppedReading();
        }
    }

    /** The refusal of a request the gateway stopped reading: nothing of it was published, a retry is safe. */
    private static Rejection stoppedReading() {
        return new Rejection(Outcome.SHUTTING_DOWN, "this gateway is shutting down and stopped reading the request before "
                + "publishing any of it; retry (another gateway will answer)");
    }

    private static FrontDoor.Handled handled(Taking taking, String firstId, int published, boolean unconfirmed) {
        return new FrontDoor.Handled(firstId, published, taking.overQuota, taking.limited, unconfirmed, taking.refusedAlone.size(),
                taking.refusedAlone.isEmpty() ? null : taking.refusedAlone.get(0).getMessage(), taking.rejectedParts.cardinality());
    }

    /** Both categories' limits in one header value, the later wait for the Retry-After. */
    private static Rejection merge(Rejection earlier, Rejection later) {
        if (earlier == null || earlier.sentryRateLimits() == null || later.sentryRateLimits() == null
                || earlier.sentryRateLimits().equals(later.sentryRateLimits())) {
            return later;
        }
        Rejection longer = later.retryAfterSeconds() > earlier.retryAfterSeconds() ? later : earlier;
        return new Rejection(longer.outcome(), longer.getMessage(), null, longer.limit(), longer.retryAfterSeconds())
                .withSentryRateLimits(SentryRateLimits.merge(earlier.sentryRateLimits(), later.sentryRateLimits()));
    }

    /** Records a whole request's refusal under {@code token} (null when it named no project): by every handler, here. */
    void refused(String token, Rejection refusal) {
        recorder.refused(token, refusal);
    }

    /** The answer refusing a whole request, as the door of its {@code route} writes it (null: its path named none). */
    FullHttpResponse refusal(IngestRoute route, Rejection refusal, FrontDoor.Caller caller) {
        return doors.of(route).refusal(refusal, caller);
    }

    /** The answer refusing the whole request: a {@link Rejection}, or a body this code did not foresee (then the connection closes). */
    private Answer refuse(FrontDoor door, String token, FrontDoor.Caller caller, Throwable error) {
        if (error instanceof Rejection refused) {
            recorder.refused(token, refused);
            return new Answer(door.refusal(refused, caller), refused.status() < 500);
        }
        LOG.warn("unexpected failure reading a request of project {}", token, error);
        Rejection refused = new Rejection(Outcome.BAD_REQUEST, "the request could not be read");
        recorder.refused(token, refused);
        return new Answer(door.refusal(refused, caller), false);
    }
}
