package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.ObjectMapper;

/** What route a transaction's method and path (or name) get: {@link Routes}. */
class RoutesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> examples() {
        return Stream.of(
                Arguments.of("GET", "/users/42", "GET /users/{id}"),
                Arguments.of("GET", "/orders/0f8fad5b-d9cb-469f-a165-70867728950e/items", "GET /orders/{uuid}/items"),
                Arguments.of("GET", "/orders/ORDER-0F8FAD5B-D9CB-469F-A165-70867728950E.pdf", "GET /orders/{uuid}"),
                Arguments.of("GET", "/commits/da39a3ee5e6b4b0d3255bfef95601890afd80709", "GET /commits/{hex}"),
                Arguments.of("GET", "/objects/507f1f77bcf86cd799439011", "GET /objects/{hex}"),
                Arguments.of("GET", "/mem/0x7ffd5e8c", "GET /mem/{hex}"),
                Arguments.of("GET", "/reports/2024-01-31", "GET /reports/{date}"),
                Arguments.of("GET", "/reports/2024-01-31T12:30:00Z/summary", "GET /reports/{date}/summary"),
                Arguments.of("GET", "/reports/2024-01-31T12:30:00.123+02:00", "GET /reports/{date}"),
                Arguments.of("GET", "/users/jane.doe@example.com/settings", "GET /users/{email}/settings"),
                Arguments.of("GET", "/users/jane.doe%40example.com", "GET /users/{email}"),
                Arguments.of("GET", "/hosts/192.168.0.1/status", "GET /hosts/{ip}/status"),
                Arguments.of("GET", "/hosts/2001:db8::1", "GET /hosts/{ip}"),
                Arguments.of("GET", "/reset/dGhpcyBpcyBhIHRva2VuMTIz", "GET /reset/{token}"),
                Arguments.of("GET", "/auth/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "GET /auth/{token}"),
                Arguments.of("POST", "/api/v2/users/7/roles", "POST /api/v2/users/{id}/roles"),
                Arguments.of("GET", "/users/42.json", "GET /users/{id}.json"),
                Arguments.of("GET", "/orders/order-123/lines/line_4", "GET /orders/order-{id}/lines/line_{id}"),
                Arguments.of("GET", "/invoices/INV2024001", "GET /invoices/INV{id}"),
                Arguments.of("GET", "/codecs/h264/x86", "GET /codecs/h264/x86"),
                Arguments.of("GET", "/blog/how-to-build-a-rocket-2024", "GET /blog/how-to-build-a-rocket-{id}"),
                Arguments.of("GET", "/getUserProfileSettings", "GET /getUserProfileSettings"),
                Arguments.of("GET", "/users/42/", "GET /users/{id}"),
                Arguments.of("GET", "//users//42", "GET /users/{id}"),
                Arguments.of("GET", "/", "GET /"),
                Arguments.of("GET", "/search?q=42&page=3", "GET /search"),
                Arguments.of("GET", "/docs#section-42", "GET /docs"),
                Arguments.of("GET", "/users/%34%32", "GET /users/{id}"),
                Arguments.of("GET", "/files/caf%C3%A9", "GET /files/caf%C3%A9"),
                Arguments.of("GET", "/files/%E2%82", "GET /files/%E2%82"),
                Arguments.of("", "GET /users/42", "GET /users/{id}"),
                Arguments.of("", "/users/42", "/users/{id}"),
                Arguments.of("", "checkout", "checkout"),
                Arguments.of("", "process batch 12345", "process batch {id}"),
                Arguments.of("POST", "https://shop.example/cart/42?x=1", "POST /cart/{id}"),
                Arguments.of("GET", "/users/{id}", "GET /users/{id}"),
                Arguments.of("GET", "/caf\u00e9/42", "GET /caf\u00e9/{id}"),
                Arguments.of("GET", "/x/\ud800/42", "GET /x/\ud800/{id}"),
                Arguments.of("GET", "/emoji/\ud83d\ude00/7", "GET /emoji/\ud83d\ude00/{id}"),
                Arguments.of("GET", "/2024/01/31/post", "GET /{id}/{id}/{id}/post"));
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @MethodSource("examples")
    void variablePartsAreReplacedByTheirKind(String method, String path, String route) {
        assertEquals(route, Routes.normalize(method, path, RouteRules.NONE));
    }

    @Test
    void tenThousandPathsOfRandomIdentifiersAreOneRoute() {
        java.util.Random random = new java.util.Random(33);
        java.util.Set<String> routes = new java.util.HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            byte[] token = new byte[18];
            random.nextBytes(token);
            String path = "/users/" + random.nextInt(1_000_000) + "/orders/" + java.util.UUID.randomUUID()
                    + "/files/" + Long.toHexString(random.nextLong() | 1L << 60) + Long.toHexString(random.nextLong() | 1L << 60)
                    + "/share/" + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(token).replace('_', 'x').replace('-', '7') + "7a"
                    + "/on/" + java.time.LocalDate.ofEpochDay(random.nextInt(20_000)) + "/by/u" + i + "@example.com"
                    + "/from/10." + random.nextInt(256) + ".0." + random.nextInt(256) + "?page=" + i;
            routes.add(Routes.normalize("GET", path, RouteRules.NONE));
        }
        assertEquals(java.util.Set.of("GET /users/{id}/orders/{uuid}/files/{hex}/share/{token}/on/{date}/by/{email}/from/{ip}"), routes);
    }

    @Test
    void aPathOfTenThousandCharactersGivesABoundedRoute() {
        String route = Routes.normalize("GET", "/a/" + "b".repeat(10_000), RouteRules.NONE);
        assertEquals("GET /a/**", route);
    }

    @Test
    void aPathOfTenThousandSegmentsKeepsTheFirst32() {
        String route = Routes.normalize("GET", "/s".repeat(10_000), RouteRules.NONE);
        assertEquals("GET " + "/s".repeat(Routes.MAX_SEGMENTS) + "/**", route);
    }

    @Test
    void placeholdersLongerThanTheirSegmentsStillFitTheLimit() {
        String route = Routes.normalize("GET", "/1".repeat(400), RouteRules.NONE);
        assertTrue(route.length() <= Routes.MAX_LENGTH, "length " + route.length());
        assertEquals("GET " + "/{id}".repeat(Routes.MAX_SEGMENTS) + "/**", route);
    }

    @Test
    void theLengthLimitNeverSplitsASurrogatePair() {
        String route = Routes.kept("GET", "/" + "\ud83d\ude00".repeat(1_000));
        assertEquals(Routes.MAX_LENGTH - 1, route.length());
        assertTrue(Character.isLowSurrogate(route.charAt(route.length() - 1)));
    }

    @Test
    void anHttpRouteTheClientSentIsKeptAsSent() throws Exception {
        var event = JSON.readTree("{\"transaction\": \"GET /users/42\", \"contexts\": {\"trace\": {\"data\": {\"http.route\": \"/users/:id\"}}}}");
        assertEquals("GET /users/:id", Routes.of(event, "GET", "GET /users/42", "/users/42", RouteRules.NONE));
    }

    @Test
    void aSentryTransactionWhoseSourceIsARouteIsKeptAsSent() throws Exception {
        for (String source : List.of("route", "view", "component", "custom", "task")) {
            var event = JSON.readTree("{\"transaction_info\": {\"source\": \"" + source + "\"}}");
            assertEquals("POST /orders/<int:order_id>", Routes.of(event, "POST", "/orders/<int:order_id>", "/orders/7", RouteRules.NONE));
        }
    }

    @Test
    void aSentryTransactionWhoseSourceIsAUrlIsNormalized() throws Exception {
        var event = JSON.readTree("{\"transaction_info\": {\"source\": \"url\"}}");
        assertEquals("GET /users/{id}", Routes.of(event, "GET", "/users/42", "", RouteRules.NONE));
    }

    @Test
    void aRouteSentOfAMegabyteIsCutToTheLimit() throws Exception {
        String huge = "/" + "r".repeat(1 << 20);
        var event = JSON.readTree("{\"contexts\": {\"trace\": {\"data\": {\"http.route\": \"" + huge + "\"}}}}");
        assertEquals("GET " + huge.substring(0, Routes.MAX_LENGTH - 4), Routes.of(event, "GET", "x", "", RouteRules.NONE));
    }

    @Test
    void anErrorReportsRouteIsItsRequestPathElseItsTransactionName() throws Exception {
        assertEquals("POST /carts/{id}", ErrorFields.of(JSON.readTree(
                "{\"request\": {\"method\": \"post\", \"url\": \"https://h/carts/7?x=1\"}, \"transaction\": \"/ignored\"}")).route());
        assertEquals("GET /users/{id}", ErrorFields.of(JSON.readTree("{\"transaction\": \"GET /users/42\"}")).route());
        assertEquals("", ErrorFields.of(JSON.readTree("{\"message\": \"no request, no transaction\"}")).route());
    }

    @Test
    void aKeptRouteIsNotGivenItsMethodTwice() {
        assertEquals("GET /users/{id}", Routes.kept("GET", "GET /users/{id}"));
    }

    @Test
    void theFirstMatchingProjectRuleIsTheRoute() {
        RouteRules rules = RouteRules.of(List.of("/shops/*/orders/*", "/shops/*/**"));
        assertEquals("GET /shops/*/orders/*", Routes.normalize("GET", "/shops/acme/orders/42", rules));
        assertEquals("GET /shops/*/**", Routes.normalize("GET", "/shops/acme/orders/42/items", rules));
        assertEquals("GET /shops/*/**", Routes.normalize("GET", "/shops/acme", rules));
    }

    @Test
    void aRuleMatchesThePathWithoutQueryAndTrailingSlash() {
        RouteRules rules = RouteRules.of(List.of("/shops/{shop}/orders/{order}"));
        assertEquals("GET /shops/{shop}/orders/{order}", Routes.normalize("GET", "/shops/acme/orders/A-7/?x=1", rules));
    }

    @Test
    void aPathNoRuleMatchesIsNormalizedAsWithout() {
        RouteRules rules = RouteRules.of(List.of("/shops/*/orders/*"));
        assertEquals("GET /shops/{id}", Routes.normalize("GET", "/shops/42", rules));
        assertEquals("GET /shops/acme/orders/{id}/items", Routes.normalize("GET", "/shops/acme/orders/42/items", rules));
    }

    @Test
    void aRuleWithoutRestDoesNotMatchAPathCutAtTheSegmentLimit() {
        String pattern = "/*".repeat(Routes.MAX_SEGMENTS);
        RouteRules rules = RouteRules.of(List.of(pattern));
        assertEquals("GET " + pattern, Routes.normalize("GET", "/s".repeat(Routes.MAX_SEGMENTS), rules));
        assertEquals("GET " + "/s".repeat(Routes.MAX_SEGMENTS) + "/**", Routes.normalize("GET", "/s".repeat(Routes.MAX_SEGMENTS + 1), rules));
    }
}
