package io.sluice.cli;

/** One {@code ./sluice} command. */
@FunctionalInterface
public interface Command {
    /**
     * @return the exit code: 0 done, 1 failed; a {@link Args.UsageException} means called wrongly (2)
     */
    int run(Args args) throws Exception;

    /** True when the command returns while its work goes on in other threads (a server): main must not exit. */
    default boolean keepsRunning() {
        return false;
    }
}
