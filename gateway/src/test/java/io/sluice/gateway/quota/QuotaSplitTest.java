package io.sluice.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

class QuotaSplitTest {
    private static final long SECOND = 1_000_000_000L;
    private final QuotaSplit split = new QuotaSplit(SECOND);

    @Test
    void aGatewayTakesThePartOfAQuotaItWasAskedFor() {
        split.received(new UsageReport("b", false, Map.of("p", 20)), 0);
        split.received(new UsageReport("c", false, Map.of("p", 10, "q", 5)), 0);
        assertEquals(Map.of("p", 0.25, "q", 0.5), split.parts(Map.of("p", 10, "q", 5), 0));
    }

    @Test
    void aQuotaOnlyTheOthersWereAskedForGetsThePartOfOneEventHere() {
        split.received(new UsageReport("b", false, Map.of("p", 20)), 0);
        split.received(new UsageReport("c", false, Map.of("p", 19)), 0);
        assertEquals(Map.of("p", 1.0 / 40), split.parts(Map.of(), 0));
    }

    @Test
    void aQuotaNobodyWasAskedForIsWhollyThisGatewaysAsAreOnlyItsOwn() {
        split.received(new UsageReport("b", false, Map.of()), 0);
        assertEquals(Map.of("q", 1.0), split.parts(Map.of("q", 3), 0));
    }

    @Test
    void aGatewayThatLeavesIsForgottenAtOnce() {
        split.received(new UsageReport("b", false, Map.of("p", 30)), 0);
        split.received(new UsageReport("b", true, Map.of()), 1);
        assertEquals(Map.of("p", 1.0), split.parts(Map.of("p", 10), 2));
        assertEquals(1, split.gateways(2));
    }

    @Test
    void aGatewayNotHeardFromIsForgottenAfterForgetAfter() {
        split.received(new UsageReport("b", false, Map.of("p", 30)), 0);
        assertEquals(Map.of("p", 0.25), split.parts(Map.of("p", 10), SECOND));
        assertEquals(Map.of("p", 1.0), split.parts(Map.of("p", 10), SECOND + 1));
    }

    @Test
    void aGatewaysNewReportReplacesItsLastOne() {
        split.received(new UsageReport("b", false, Map.of("p", 30)), 0);
        split.received(new UsageReport("b", false, Map.of("q", 30)), 1);
        assertEquals(Map.of("p", 1.0, "q", 1.0 / 31), split.parts(Map.of("p", 10), 2));
    }

    @Test
    void atMostMaxGatewaysAreRememberedTheLongestNotHeardFromDroppedFirst() {
        split.received(new UsageReport("first", false, Map.of("p", 1)), 0);
        split.received(new UsageReport("second", false, Map.of("q", 1)), 0);
        for (int i = 2; i < QuotaSplit.MAX_GATEWAYS; i++) {
            split.received(new UsageReport("g" + i, false, Map.of()), 0);
        }
        split.received(new UsageReport("first", false, Map.of("p", 1)), 0);
        split.received(new UsageReport("one too many", false, Map.of()), 0);
        assertEquals(QuotaSplit.MAX_GATEWAYS + 1, split.gateways(0));
        assertEquals(Map.of("p", 0.5), split.parts(Map.of(), 0));
    }
}
