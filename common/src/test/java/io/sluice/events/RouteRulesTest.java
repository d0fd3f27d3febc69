package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** What a route pattern may be, and how many a project has. */
class RouteRulesTest {

    @Test
    void aPatternIsAPathOfLiteralsWildcardsAndARest() {
        for (String pattern : List.of("/shops/*/orders/*", "/shops/{shop}/**", "/health", "/a/b%20c/*", "/caf\u00e9/*")) {
            RouteRules.check(pattern);
        }
    }

    @Test
    void whatIsNoPatternIsRefusedSayingWhy() {
        assertMessage("starts with /", "shops/*");
        assertMessage("starts with /", "");
        assertMessage("no query", "/shops/*?x=1");
        assertMessage("no query", "/shops/*#f");
        assertMessage("no query", "/shops/ x");
        assertMessage("no query", "/x/\ud800");
        assertMessage("only be the last", "/**/x");
        assertMessage("not part of one", "/shop-*/x");
        assertMessage("at least one segment", "/");
        assertMessage("at most 256 characters", "/" + "a".repeat(256));
        assertMessage("at most 32 segments", "/a".repeat(33));
    }

    @Test
    void aProjectHasAtMostFiftyRules() {
        List<String> patterns = new ArrayList<>();
        for (int i = 0; i < RouteRules.MAX_RULES; i++) {
            patterns.add("/r" + i + "/*");
        }
        RouteRules full = RouteRules.of(patterns);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> full.with("/one/more"));
        assertTrue(refused.getMessage().contains("at most 50 route rules"), refused.getMessage());
    }

    @Test
    void addingARuleItHasAlreadyOrRemovingOneItHasNotChangesNothing() {
        RouteRules rules = RouteRules.of(List.of("/a/*"));
        assertSame(rules, rules.with("/a/*"));
        assertSame(rules, rules.without("/b/*"));
        assertEquals(List.of("/a/*", "/b/*"), rules.with("/b/*").patterns());
        assertEquals(RouteRules.NONE, rules.without("/a/*"));
    }

    private static void assertMessage(String expected, String pattern) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> RouteRules.check(pattern));
        assertTrue(refused.getMessage().contains(expected), pattern + ": " + refused.getMessage());
    }
}
