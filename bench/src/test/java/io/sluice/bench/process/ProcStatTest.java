package io.sluice.bench.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A line of /proc/<pid>/task/<tid>/stat read as the thread's name and its CPU ticks (user + system). */
class ProcStatTest {
    @Test
    void aThreadsNameAndItsUserAndSystemTicksAreRead() {
        ProcStat stat = ProcStat.parse("4242 (kafka-producer-) S 4200 4200 3100 0 -1 1077936192 5120 0 0 0 1375 212 0 0 20 0 "
                + "45 0 987654 3914063872 98304 18446744073709551615 1 1 0 0 0 0 0 4096 16796879 0 0 0 -1 1 0 0 0 0 0");
        assertEquals(new ProcStat("kafka-producer-", 1587), stat);
    }

    @Test
    void aNameWithSpacesAndParenthesesIsReadToTheLastParenthesis() {
        ProcStat stat = ProcStat.parse("77 (C2 (x) Thread) R 1 1 1 0 -1 0 0 0 0 0 900 100 0 0 20 0 1 0 5 0 0");
        assertEquals(new ProcStat("C2 (x) Thread", 1000), stat);
    }

    @Test
    void ticksAreHundredthsOfASecond() {
        assertEquals(15.87, new ProcStat("sluice-read-0", 1587).seconds(), 1e-9);
    }
}
