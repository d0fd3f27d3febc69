package io.sluice.fatal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A process that runs out of heap in a thread of its own while its main thread carries on: {@link FatalErrorsProcessTest}. */
public final class RunsOutOfMemory {
    private RunsOutOfMemory() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (!args[0].equals("without-handler")) {
            FatalErrors.install();
        }
        Runnable exhaustHeap = () -> {
            List<long[]> held = new ArrayList<>();
            while (true) {
                held.add(new long[1 << 16]);
            }
        };
        switch (args[0]) {
            case "scheduler" -> FatalErrors.singleThreadScheduler("scheduled-task").schedule(exhaustHeap, 0, TimeUnit.MILLISECONDS);
            default -> new Thread(exhaustHeap, "allocating").start();
        }
        Thread.sleep(30_000); // a server's main thread, still running: only a halt ends the process early
        System.exit(0);
    }
}
