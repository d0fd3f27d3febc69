package io.sluice.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One line of {@code /proc/<pid>/stat} or {@code /proc/<pid>/task/<tid>/stat}: the process's or
 * thread's name ({@code comm}, which the kernel cuts to 15 characters) and the CPU it has used, user
 * and system, in clock ticks.
 */
public record ProcStat(String name, long ticks) {
    /** USER_HZ: the unit of the ticks, 100 on every Linux architecture the bench runs on. */
    static final double TICKS_PER_SECOND = 100;

    /**
     * The name is between the first '(' and the last ')' (it may hold either); after it, utime and
     * stime are the 12th and 13th fields (fields 14 and 15 of the line).
     */
    static ProcStat parse(String line) {
        int open = line.indexOf('(');
        int close = line.lastIndexOf(')');
        String[] after = line.substring(close + 2).split(" ");
        return new ProcStat(line.substring(open + 1, close), Long.parseLong(after[11]) + Long.parseLong(after[12]));
    }

    double seconds() {
        return ticks / TICKS_PER_SECOND;
    }

    /** The process as a whole: its threads', those that exited included. */
    static ProcStat process(long pid) {
        try {
            return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the CPU of process " + pid, e);
        }
    }

    /** Each live thread of the process; a thread that exits while they are read is left out. */
    static List<ProcStat> threads(long pid) {
        List<ProcStat> threads = new ArrayList<>();
        try (var tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    threads.add(parse(Files.readString(task.resolve("stat"))));
                } catch (NoSuchFileException exited) {
                    // its ticks stay in the process's total
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the threads of process " + pid, e);
        }
        return threads;
    }
}
