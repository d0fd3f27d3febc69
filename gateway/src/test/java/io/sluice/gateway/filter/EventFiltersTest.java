package io.sluice.gateway.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.Test;

import io.sluice.gateway.ingest.Endpoint;
import io.sluice.projects.Globs;
import io.sluice.projects.InboundFilter;
import io.sluice.projects.InboundFilters;

/** The filters against Relay's own test tables (relay-filter/src/*.rs), each with every filter on. */
class EventFiltersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final InboundFilters ALL_ON = new InboundFilters(Set.copyOf(InboundFilter.SWITCHABLE), Globs.NONE, Globs.NONE);
    private static final InboundFilters ALL_OFF = new InboundFilters(Set.of(), Globs.NONE, Globs.NONE);

    @Test
    void healthCheckTransactionsOfRelaysTableAreFiltered() {
        for (String name : List.of("a/b/healthcheck/c", "a_HEALTHCHECK_b", "healthcheck", "/health", "a/HEALTH", "live", "livez",
                "live/123", "live-33", "x-live", "abc/live", "abc/live-23", "ready", "123/ready", "readyz", "ready/123",
                "abc/ready/1234", "abcheartbeat123", "123/health", "123/healthz", "123/ping", "GET /healthz", "GET /ready")) {
            assertEquals(InboundFilter.HEALTH_CHECK, transactionFilteredBy(name, ALL_ON), name);
        }
    }

    @Test
    void transactionsRelaysTableKeepsAreKept() {
        for (String name : List.of("bad", "/bad", "a/b/c", "health", "healthz", "/health/", "/healthz/", "/healthx", "/healthzx",
                "service-delivery", "delivery", "notready", "already", "GET /users/{id}")) {
            assertNull(transactionFilteredBy(name, ALL_ON), name);
        }
    }

    @Test
    void anErrorNamingAHealthCheckTransactionIsKept() {
        ObjectNode error = JSON.createObjectNode().put("transaction", "/healthz");
        assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT, error, ALL_ON));
    }

    @Test
    void aHealthCheckIsKeptWhenItsFilterIsOff() {
        assertNull(transactionFilteredBy("/healthz", ALL_OFF));
    }

    @Test
    void errorsFromBrowserExtensionSourcesOfRelaysTableAreFiltered() {
        for (String source : List.of("https://graph.facebook.com/", "https://connect.facebook.net/en_US/sdk.js",
                "https://eatdifferent.com.woopra-ns.com/main.js", "https://static.woopra.com/js/woopra.js",
                "chrome-extension://my-extension/or/something", "chrome://my-extension/or/something",
                "moz-extension://my-extension/or/something", "safari-extension://my-extension/or/something",
                "safari-web-extension://my-extension/or/something", "127.0.0.1:4001/isrunning", "webappstoolbarba.texthelp.com/",
                "http://metrics.itunes.apple.com.edgesuite.net/itunespreview/itunes/browser:firefo",
                "https://fscr.kaspersky-labs.com/B-9B72-7B7/main.js", "webkit-masked-url:")) {
            assertEquals(InboundFilter.BROWSER_EXTENSIONS, EventFilters.filteredBy(Endpoint.ERROR_REPORT, errorFrom(source), ALL_ON),
                    source);
        }
    }

    @Test
    void errorsWithBrowserExtensionValuesOfRelaysTableAreFiltered() {
        for (String value : List.of("what does conduitPage even do", "null is not an object (evaluating 'elt.parentNode')",
                "some error on top.GLOBALS", "biiig problem on originalCreateNotification", "canvas.contentDocument",
                "MyApp_RemoveAllHighlights", "http://tt.epicplay.com/not/very/good", "Can't find variable: ZiteReader, I wonder why?",
                "jigsaw is not defined and I'm not happy about it", "ComboSearch is not defined",
                "http://loading.retry.widdit.com/some/obscure/error", "atomicFindClose has messed up", "bad news, we have a fb_xd_fragment",
                "oh no! we have a case of: bmi_SafeAddOnload, again !", "watch out ! EBCallBackMessageReceived", "error _gCrWeb",
                "conduitPage", "plugin.setSuspendState is not a function", "Extension context invalidated",
                "useless error webkit-masked-url: please filter", "TypeError: can't access dead object because dead stuff smells bad")) {
            assertEquals(InboundFilter.BROWSER_EXTENSIONS, EventFilters.filteredBy(Endpoint.ERROR_REPORT, errorWithValue(value), ALL_ON),
                    value);
        }
    }

    @Test
    void aBrowserExtensionValueOrSourceIsReadOnlyInItsFirst1024Characters() {
        // A sender's 900 KB value took 67-114 ms per event when the whole of it was searched.
        String padding = "x".repeat(1024 - "top.GLOBALS".length());
        assertEquals(InboundFilter.BROWSER_EXTENSIONS, EventFilters.filteredBy(Endpoint.ERROR_REPORT,
                errorWithValue(padding + "top.GLOBALS"), ALL_ON));
        assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT, errorWithValue(padding + "xtop.GLOBALS"), ALL_ON));
        assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT, errorWithValue("x".repeat(900_000) + "top.GLOBALS"), ALL_ON));
        assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT, errorFrom("https://x/" + "x".repeat(1014) + "kaspersky-labs.com"),
                ALL_ON));
    }

    @Test
    void errorsOfTheTenantsOwnScriptsAreKept() {
        assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT, errorFrom("https://some/resonable/source.js"), ALL_ON));
        assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT, errorWithValue("some perfectly reasonable value"), ALL_ON));
    }

    @Test
    void crawlersOfRelaysTableAreFiltered() {
        for (String agent : List.of("Mediapartners-Google", "AdsBot-Google", "Googlebot", "FeedFetcher-Google", "BingBot",
                "BingPreview", "Baiduspider", "Slurp", "Sogou", "facebook", "ia_archiver", "bots ", "bots;", "bots)", "spider ",
                "spider;", "spider)", "Calypso AppCrawler", "pingdom", "lyticsbot", "AWS Security Scanner",
                "Mozilla/5.0 (Linux; Android 6.0.1; Calypso AppCrawler Build/MMB30Y; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
                        + "Version/4.0 Chrome/53.0.2785.124 Mobile Safari/537.36",
                "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "Slack-ImgProxy 0.19 (+https://api.slack.com/robots)",
                "Twitterbot/1.0", "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)",
                "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
                "AdsBot-Google (+http://www.google.com/adsbot.html)",
                "Mozilla/5.0 (compatible; HubSpot Crawler; web-crawlers@hubspot.com)",
                "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; "
                        + "spider-feedback@bytedance.com)",
                "Better Uptime Bot Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                        + "Chrome/74.0.3729.169 Safari/537.36")) {
            assertEquals(InboundFilter.WEB_CRAWLERS, EventFilters.filteredBy(Endpoint.TRANSACTION, withUserAgent(agent), ALL_ON), agent);
        }
    }

    @Test
    void userAgentsRelaysCrawlerTableKeepsAreKept() {
        for (String agent : List.of("some user agent", "IE", "ie", "opera", "safari",
                "APIs-Google (+https://developers.google.com/webmasters/APIs-Google.html)",
                "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2228.0 Safari/537.36",
                "Slackbot 1.0(+https://api.slack.com/robots)")) {
            assertNull(EventFilters.filteredBy(Endpoint.TRANSACTION, withUserAgent(agent), ALL_ON), agent);
        }
    }

    @Test
    void aUserAgentIsReadFromHeadersAsPairsIgnoringCase() {
        ObjectNode event = transaction("GET /");
        ArrayNode pair = event.putObject("request").putArray("headers").addArray();
        pair.add("user-agent").add("Googlebot");
        assertEquals(InboundFilter.WEB_CRAWLERS, EventFilters.filteredBy(Endpoint.TRANSACTION, event, ALL_ON));
    }

    @Test
    void legacyBrowsersOfRelaysDefaultTableAreFiltered() {
        for (String agent : List.of(
                "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 7.1; Trident/5.0)",
                "Mozilla/5.0 (compatible; MSIE 9.0; Windows Phone OS 7.5; Trident/5.0; IEMobile/9.0; NOKIA; Lumia 710)",
                "Mozilla/5.0 (Macintosh; U; Intel Mac OS X 1063; tr-DE) AppleWebKit/533.16 (KHTML like Gecko) Version/5.0 Safari/533.16",
                "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/27.0.1453.12 Safari/537.36 OPR/14.0.1116.4",
                "Mozilla/5.0 (Linux; U; Android 3.2; nl-nl; GT-P6800 Build/HTJ85B) AppleWebKit/534.13 (KHTML, like Gecko) Version/4.0 "
                        + "Safari/534.13",
                "Opera/9.80 (J2ME/MIDP; Opera Mini/7.0.32796/59.323; U; fr) Presto/2.12.423 Version/12.16",
                "Mozilla/5.0 (Linux; U; Android 2.3.5; en-us; HTC Vision Build/GRI40) AppleWebKit/533.1 (KHTML, like Gecko) Version/4.0 "
                        + "Mobile Safari/533.1",
                "Mozilla/5.0 (Windows; U; MSIE 9.0; WIndows NT 9.0; en-US))",
                "Mozilla/4.0 (compatible; MSIE 5.50; Windows NT; SiteKiosk 4.9; SiteCoach 1.0)",
                "Opera/9.80 (Windows NT 5.1; U; it) Presto/2.7.62 Version/11.00",
                "Opera/9.80 (X11; Linux i686; Ubuntu/14.10) Presto/2.12.388 Version/12.16",
                "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Win64; x64; Trident/4.0; .NET CLR 2.0.50727; SLCC2; .NET CLR 3.5.30729; "
                        + ".NET CLR 3.0.30729; Media Center PC 6.0; MDDC; Tablet PC 2.0)",
                "Mozilla/5.0 (Windows; U; Windows NT 6.1; zh-HK) AppleWebKit/533.18.1 (KHTML, like Gecko) Version/5.0.2 Safari/533.18.5")) {
            assertEquals(InboundFilter.LEGACY_BROWSERS, EventFilters.filteredBy(Endpoint.ERROR_REPORT, withUserAgent(agent), ALL_ON), agent);
        }
    }

    @Test
    void browsersRelaysDefaultTableKeepsAreKept() {
        for (String agent : List.of(
                "Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)",
                "Mozilla/5.0 (Macintosh; U; Intel Mac OS X 10.17.4; en-GB) AppleWebKit/605.1.5 (KHTML, like Gecko) Version/6.0 "
                        + "Safari/605.1.5",
                "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/28.0.1500.45 Safari/537.36 OPR/15.0.1147.61 "
                        + "(Edition Next)",
                "Mozilla/5.0 (Linux; U; Android 4.1.1; en-gb; Build/KLP) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Safari/534.30",
                "Opera/9.80 (J2ME/MIDP; Opera Mini/8.0.35158/36.2534; U; en) Presto/2.12.423 Version/12.16",
                "Mozilla/5.0 (Linux; Android 4.0.4; Galaxy Nexus Build/IMM76B) AppleWebKit/535.19 (KHTML, like Gecko) Chrome/18.0.1025.133 "
                        + "Mobile Safari/535.19",
                "Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 7.0; InfoPath.3; .NET CLR 3.1.40767; Trident/6.0; en-IN)",
                "Mozilla/5.0 (compatible; MSIE 10.0; Windows Phone 8.0; Trident/6.0; IEMobile/10.0; ARM; Touch; NOKIA; Lumia 520)",
                "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2228.0 Safari/537.36",
                "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/42.0.2311.135 Safari/537.36 Edge/12.10136",
                "Mozilla/5.0 (X11; Linux x86_64; Debian) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/28.0.1500.52 Safari/537.36 "
                        + "OPR/15.0.1147.100",
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_3) AppleWebKit/537.75.14 (KHTML, like Gecko) Version/7.0.3 Safari/7046A194A",
                "Mozilla/5.0 (Windows NT 6.3; Trident/7.0; rv:11.0) like Gecko")) {
            assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT, withUserAgent(agent), ALL_ON), agent);
        }
    }

    @Test
    void eventsOfLocalAddressesAndHostsOfRelaysTableAreFiltered() {
        for (String ip : List.of("127.0.0.1", "::1")) {
            ObjectNode event = transaction("GET /");
            event.putObject("user").put("ip_address", ip);
            assertEquals(InboundFilter.LOCALHOST, EventFilters.filteredBy(Endpoint.TRANSACTION, event, ALL_ON), ip);
        }
        for (String host : List.of("127.0.0.1", "localhost", "foo.localhost", "foo.bar.baz.localhost", "[::1]")) {
            assertEquals(InboundFilter.LOCALHOST, EventFilters.filteredBy(Endpoint.ERROR_REPORT, errorAt("http://" + host + ":8080/"), ALL_ON),
                    host);
        }
        assertEquals(InboundFilter.LOCALHOST, EventFilters.filteredBy(Endpoint.ERROR_REPORT,
                errorAt("file:///Users/Maisey/work/squirrelchasers/src/leaderboard.html"), ALL_ON));
    }

    @Test
    void eventsOfOtherAddressesAndHostsOfRelaysTableAreKept() {
        for (String ip : List.of("133.12.12.1", "2001:db8:0:0:0:ff00:42:8329")) {
            ObjectNode event = transaction("GET /");
            event.putObject("user").put("ip_address", ip);
            assertNull(EventFilters.filteredBy(Endpoint.TRANSACTION, event, ALL_ON), ip);
        }
        for (String host : List.of("my.dom.com", "123.123.123.44", "localhost.com", "foolocalhost", "localhostbar",
                "alocalhostgoesintoabar")) {
            assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT, errorAt("http://" + host + ":8080/"), ALL_ON), host);
        }
        assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT, errorAt("http://www.squirrelchasers.com/leaderboard"), ALL_ON));
    }

    @Test
    void aLocalHostHeaderIsFilteredOnlyWithoutAUrlAndNotAsASubdomain() {
        for (String header : List.of("Host", "X-Forwarded-Host")) {
            ObjectNode local = transaction("GET /");
            local.putObject("request").putObject("headers").put(header, "localhost:3000");
            assertEquals(InboundFilter.LOCALHOST, EventFilters.filteredBy(Endpoint.TRANSACTION, local, ALL_ON), header);
            ObjectNode remote = transaction("GET /");
            remote.putObject("request").putObject("headers").put(header, "localhost.sentry.io:3000");
            assertNull(EventFilters.filteredBy(Endpoint.TRANSACTION, remote, ALL_ON), header);
        }
    }

    @Test
    void aTransactionAtLocalhostIsKeptByDefault() {
        ObjectNode event = transaction("GET /");
        event.putObject("request").put("url", "http://localhost:8080/");
        assertNull(EventFilters.filteredBy(Endpoint.TRANSACTION, event, InboundFilters.DEFAULT));
    }

    @Test
    void errorMessagesOfRelaysTableAreFilteredByTheProjectsPatterns() {
        InboundFilters patterns = new InboundFilters(Set.of(), Globs.of(List.of("filteredexception*", "*this is a filtered exception.",
                "", "this is")), Globs.NONE);
        assertEquals(InboundFilter.ERROR_MESSAGE, EventFilters.filteredBy(Endpoint.ERROR_REPORT,
                error("FilteredException", "This is a filtered exception.", "hi this is a legit log message"), patterns));
        assertEquals(InboundFilter.ERROR_MESSAGE, EventFilters.filteredBy(Endpoint.ERROR_REPORT,
                error(null, null, "FilteredException: This is a filtered exception."), patterns));
        assertEquals(InboundFilter.ERROR_MESSAGE, EventFilters.filteredBy(Endpoint.ERROR_REPORT,
                error("FilteredException", null, "UnfilteredException"), patterns));
        assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT,
                error("UnfilteredException", "This is an unfiltered exception.", "UnfilteredException: This is an unfiltered exception."),
                patterns));
        assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT, error(null, null, ""), patterns));
    }

    @Test
    void aSessionIsFilteredByTheReleaseInItsAttributes() throws Exception {
        InboundFilters releases = new InboundFilters(Set.of(), Globs.NONE, Globs.of(List.of("shop@1.*")));
        assertEquals(InboundFilter.RELEASE, EventFilters.filteredBy(Endpoint.SESSION,
                JSON.readTree("{\"sid\": \"x\", \"attrs\": {\"release\": \"shop@1.2.0\"}}"), releases));
        assertNull(EventFilters.filteredBy(Endpoint.SESSION, JSON.readTree("{\"attrs\": {\"release\": \"shop@2.0.0\"}}"), releases));
    }

    @Test
    void chunkLoadErrorsAreFilteredByRelaysPatterns() {
        InboundFilters patterns = new InboundFilters(Set.of(), Globs.of(List.of("ChunkLoadError: Loading chunk *",
                "*Uncaught *: ChunkLoadError: Loading chunk *")), Globs.NONE);
        for (String message : List.of("Error: Uncaught (in promise): ChunkLoadError: Loading chunk 175 failed.",
                "Uncaught (in promise): ChunkLoadError: Loading chunk 175 failed.", "ChunkLoadError: Loading chunk 552 failed.")) {
            assertEquals(InboundFilter.ERROR_MESSAGE, EventFilters.filteredBy(Endpoint.ERROR_REPORT, error(null, null, message), patterns),
                    message);
        }
    }

    @Test
    void eventsOfAReleaseThePatternsMatchAreFiltered() {
        InboundFilters patterns = new InboundFilters(Set.of(), Globs.NONE, Globs.of(List.of("*-dev", "1.2.?")));
        ObjectNode dev = transaction("GET /");
        dev.put("release", "shop@4.0-DEV");
        assertEquals(InboundFilter.RELEASE, EventFilters.filteredBy(Endpoint.TRANSACTION, dev, patterns));
        ObjectNode old = JSON.createObjectNode().put("release", "1.2.3");
        assertEquals(InboundFilter.RELEASE, EventFilters.filteredBy(Endpoint.ERROR_REPORT, old, patterns));
        ObjectNode current = JSON.createObjectNode().put("release", "1.2.30");
        assertNull(EventFilters.filteredBy(Endpoint.ERROR_REPORT, current, patterns));
    }

    private static InboundFilter transactionFilteredBy(String name, InboundFilters filters) {
        return EventFilters.filteredBy(Endpoint.TRANSACTION, transaction(name), filters);
    }

    private static ObjectNode transaction(String name) {
        return JSON.createObjectNode().put("transaction", name);
    }

    private static JsonNode withUserAgent(String agent) {
        ObjectNode event = transaction("GET /");
        event.putObject("request").putObject("headers").put("User-Agent", agent);
        return event;
    }

    private static ObjectNode errorAt(String url) {
        ObjectNode event = JSON.createObjectNode();
        event.putObject("request").put("url", url);
        return event;
    }

    /** Relay's shape: the exception first, two empty ones after it; its frame last, two anonymous ones after it. */
    private static ObjectNode errorFrom(String source) {
        ObjectNode event = JSON.createObjectNode();
        ArrayNode values = event.putObject("exception").putArray("values");
        ArrayNode frames = values.addObject().putObject("stacktrace").putArray("frames");
        frames.addObject().put("abs_path", source);
        frames.addObject().put("abs_path", "<anonymous>");
        frames.addObject().put("abs_path", "<anonymous>");
        values.addObject();
        values.addObject();
        return event;
    }

    private static ObjectNode errorWithValue(String value) {
        ObjectNode event = JSON.createObjectNode();
        ArrayNode values = event.putObject("exception").putArray("values");
        values.addObject().put("value", value);
        values.addObject();
        values.addObject();
        return event;
    }

    private static ObjectNode error(String type, String value, String formatted) {
        ObjectNode event = JSON.createObjectNode();
        ObjectNode exception = event.putObject("exception").putArray("values").addObject();
        if (type != null) {
            exception.put("type", type);
        }
        if (value != null) {
            exception.put("value", value);
        }
        event.putObject("logentry").put("formatted", formatted);
        return event;
    }
}
