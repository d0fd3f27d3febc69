package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * How many times threads of this JVM went to sleep and were woken, as Linux counts them: the sum of
 * {@code voluntary_ctxt_switches} in {@code /proc/self/task/<tid>/status} of the one thread with this
 * name (cut to 15 characters, as the kernel keeps it). A poller that waits in a loop wakes once
 * per wait, so the difference over an idle interval counts its wake-ups, whatever the machine's load.
 */
public final class ThreadWakeups {
    private static final Path TASKS = Path.of("/proc/self/task");

    private ThreadWakeups() {
    }

    /** The wake-ups so far of the live thread named {@code name}; fails unless exactly one thread has that name. */
    public static long of(String name) {
        String comm = name.length() > 15 ? name.substring(0, 15) : name;
        long sum = 0;
        int threads = 0;
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : tasks.toList()) {
                try {
                    if (!Files.readString(task.resolve("comm")).strip().equals(comm)) {
                        continue;
                    }
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            sum += Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
                            threads++;
                        }
                    }
                } catch (IOException exited) {
                    // the thread ended meanwhile: not one of those counted
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + TASKS, e);
        }
        if (threads != 1) {
            throw new IllegalStateException(threads + " threads named " + comm + " in this JVM, not one");
        }
        return sum;
    }
}
