package io.sluice.processor.topology;

import java.util.concurrent.atomic.AtomicLong;

/** The heap bytes the first-sighting filters of one processor instance may take together (all its tasks). */
public final class FilterMemory {
    private final long limit;
    private final AtomicLong used = new AtomicLong();

    public FilterMemory(long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("a memory limit cannot be negative: " + limit);
        }
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }

    public long used() {
        return used.get();
    }

    /** Whether {@code bytes} are left now (another task may take them first). */
    boolean hasRoomFor(long bytes) {
        return used.get() + bytes <= limit;
    }

    /** Takes {@code bytes} if they are left; false (and nothing taken) if not. */
    boolean take(long bytes) {
        long before;
        do {
            before = used.get();
            if (before + bytes > limit) {
                return false;
            }
        } while (!used.compareAndSet(before, before + bytes));
        return true;
    }

    void giveBack(long bytes) {
        used.addAndGet(-bytes);
    }
}
