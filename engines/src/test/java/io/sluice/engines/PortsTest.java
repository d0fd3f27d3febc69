package io.sluice.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A port handed out is never handed out again in the same JVM, by either method. The kernel picks
 * an ephemeral port at random for each bind to port 0, so among 1,500 picks of its ~28,000 some
 * come back twice unless Ports refuses them (1,347 different ones in a run without the rule).
 */
class PortsTest {
    @Test
    void portsPickedOneAtATimeAndInPairsAreNeverHandedOutTwice() {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            ports.add(Ports.free());
            ports.addAll(Ports.free(2));
        }
        assertEquals(ports.size(), new HashSet<>(ports).size(), "a port handed out twice");
    }
}
