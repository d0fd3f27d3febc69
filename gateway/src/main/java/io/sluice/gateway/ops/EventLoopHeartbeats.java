package io.sluice.gateway.ops;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;

/**
 * A heartbeat on each event loop: a task every {@link #INTERVAL} that notes when it ran. A loop
 * whose heartbeat is late is held, by one task that takes long (a body read on the loop) or by a
 * backlog of tasks that long, and so are its connections; how late is its lag, which {@code /readyz}
 * and {@code sluice_gateway_event_loop_lag_seconds} read. A note per beat: no cost on the request path.
 */
public final class EventLoopHeartbeats implements AutoCloseable {
    public static final Duration INTERVAL = Duration.ofMillis(500);

    private final LongSupplier nanoTime;
    /** When each loop last ran its heartbeat, on the clock. */
    private final AtomicLongArray lastBeat;
    private final List<Future<?>> beats = new ArrayList<>();

    /** Starts the heartbeats on {@code loops}, in their order (loop 1 is the first). */
    public EventLoopHeartbeats(EventLoopGroup loops, LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        List<EventExecutor> each = new ArrayList<>();
        loops.forEach(each::add);
        this.lastBeat = new AtomicLongArray(each.size());
        long now = nanoTime.getAsLong();
        for (int i = 0; i < each.size(); i++) {
            int loop = i;
            lastBeat.set(loop, now);
            // With a fixed delay, not rate: a loop that was held runs one beat when free, not one per missed interval.
            beats.add(each.get(loop).scheduleWithFixedDelay(() -> lastBeat.set(loop, nanoTime.getAsLong()),
                    0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS));
        }
    }

    public int loops() {
        return lastBeat.length();
    }

    /** How late the heartbeat of loop {@code index} (from 0) is now; 0 while it is on time. */
    public long lagNanos(int index) {
        return Math.max(0, nanoTime.getAsLong() - lastBeat.get(index) - INTERVAL.toNanos());
    }

    @Override
    public void close() {
        beats.forEach(beat -> beat.cancel(false));
    }
}
