package io.sluice.gateway.ops;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;

/** Real event loops with heartbeats on a clock the test moves, and loop 1 held by a task while the test wants it. */
final class HeldLoops implements AutoCloseable {
    final AtomicLong clock = new AtomicLong();
    private final EventLoopGroup loops;
    final EventLoopHeartbeats heartbeats;
    private final CountDownLatch held = new CountDownLatch(1);

    HeldLoops(int count) {
        this.loops = new MultiThreadIoEventLoopGroup(count, NioIoHandler.newFactory());
        this.heartbeats = new EventLoopHeartbeats(loops, clock::get);
    }

    /** Holds loop 1 (the first) with a task, once it runs it: its heartbeat does not run while the test moves the clock. */
    void holdLoopOne() throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        loops.iterator().next().execute(() -> {
            running.countDown();
            try {
                held.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        running.await();
    }

    void release() {
        held.countDown();
    }

    @Override
    public void close() {
        release();
        heartbeats.close();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
