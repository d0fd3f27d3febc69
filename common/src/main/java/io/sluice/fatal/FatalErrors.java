package io.sluice.fatal;

import java.io.PrintStream;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.IntConsumer;

/**
 * A server that meets a {@link VirtualMachineError} (out of memory, a stack overflow, an internal
 * error) halts at once, with {@link #EXIT_CODE}, so that its supervisor (Kubernetes, compose, a
 * shell loop) restarts it, instead of running on with the threads that died: a gateway that lost
 * its registry follower or its producer's thread answers nothing well. {@code -XX:+ExitOnOutOfMemoryError}
 * (set by {@code ./sluice} and the image) halts on the JVM's own out-of-memory errors; this also
 * covers an {@code OutOfMemoryError} that a library throws itself (Netty's direct memory limit),
 * the other virtual machine errors, an error wrapped in another exception, and a server started
 * without the flag ({@code java -jar}). Halts rather than exits: shutdown hooks may need the
 * memory that is gone, and would wait on the threads that died.
 */
public final class FatalErrors implements Thread.UncaughtExceptionHandler {
    /** The exit code of a halt on a fatal error (as {@code -XX:+ExitOnOutOfMemoryError}'s 3). */
    public static final int EXIT_CODE = 3;
    private static final FatalErrors PROCESS = new FatalErrors(code -> Runtime.getRuntime().halt(code), System.err);

    private final IntConsumer halt;
    private final PrintStream err;

    FatalErrors(IntConsumer halt, PrintStream err) {
        this.halt = halt;
        this.err = err;
    }

    /**
     * Makes this the handler of every thread that has none of its own (the default handler):
     * a fatal error halts the process; any other uncaught exception is printed, as the JVM would.
     */
    public static void install() {
        Thread.setDefaultUncaughtExceptionHandler(PROCESS);
    }

    /**
     * A scheduler of one daemon thread of this name that halts the process when a task fails
     * with a fatal error: a scheduled executor keeps what a task throws in the task's future, where
     * no uncaught-exception handler sees it, and silently stops running a periodic task that threw.
     */
    public static ScheduledExecutorService singleThreadScheduler(String threadName) {
        return new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        }) {
            @Override
            protected void afterExecute(Runnable task, Throwable thrown) {
                if (thrown == null && task instanceof Future<?> future && future.isDone() && !future.isCancelled()) {
                    try {
                        future.get();
                    } catch (ExecutionException e) {
                        thrown = e.getCause();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (thrown != null) {
                    PROCESS.haltIfFatal(Thread.currentThread(), thrown);
                }
            }
        };
    }

    /** Halts when the throwable, or one of its causes, is a virtual machine error; otherwise does nothing. */
    public static void haltIfFatal(Throwable thrown) {
        PROCESS.haltIfFatal(Thread.currentThread(), thrown);
    }

    /** Whether the throwable, or one of its causes, is a virtual machine error. */
    public static boolean isFatal(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof VirtualMachineError) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void uncaughtException(Thread thread, Throwable thrown) {
        haltIfFatal(thread, thrown);
        err.print("Exception in thread \"" + thread.getName() + "\" ");
        thrown.printStackTrace(err);
    }

    void haltIfFatal(Thread thread, Throwable thrown) {
        if (!isFatal(thrown)) {
            return;
        }
        try {
            // One line, built from constants and the error's own message: there may be no memory for more.
            err.println("sluice: fatal " + thrown + " in thread " + thread.getName() + ": halting (exit code "
                    + EXIT_CODE + ") so that the supervisor restarts this process");
            err.flush();
        } catch (Throwable ignored) {
            // halting matters more than saying so
        } finally {
            halt.accept(EXIT_CODE);
        }
    }
}
