package io.sluice.cli;

/** A command that returns while its work goes on in other threads (a server): main must not exit after it. */
public interface LongRunning {
}
