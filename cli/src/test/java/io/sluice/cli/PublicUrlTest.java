package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;

class PublicUrlTest {
    private static final String KEY = "0123456789abcdef0123456789abcdef";

    @Test
    void theDsnIsSchemeKeyHostPortAndNumericId() {
        assertEquals("https://" + KEY + "@sluice.example.com/42", PublicUrl.parse("https://sluice.example.com").dsn(KEY, 42));
        assertEquals("http://" + KEY + "@10.0.0.5:8080/42", PublicUrl.parse("http://10.0.0.5:8080/").dsn(KEY, 42));
    }

    @Test
    void aPathPrefixIsKeptBeforeTheId() {
        assertEquals("https://" + KEY + "@example.com/sluice/42", PublicUrl.parse("https://example.com/sluice/").dsn(KEY, 42));
    }

    @Test
    void withoutTheSettingTheDsnPointsAtTheGatewaysHostAndPort() {
        Settings settings = new Settings(Map.of("SLUICE_GATEWAY_HOST", "gw.internal", "SLUICE_GATEWAY_PORT", "9090"));
        assertEquals("http://" + KEY + "@gw.internal:9090/7", PublicUrl.from(settings).dsn(KEY, 7));
        assertEquals("http://" + KEY + "@127.0.0.1:8080/7", PublicUrl.from(new Settings(Map.of())).dsn(KEY, 7));
    }

    @Test
    void aWildcardBindAddressBecomesThisMachine() {
        Settings settings = new Settings(Map.of("SLUICE_GATEWAY_HOST", "0.0.0.0"));
        assertEquals("http://" + KEY + "@127.0.0.1:8080/7", PublicUrl.from(settings).dsn(KEY, 7));
    }

    @Test
    void theSettingWinsOverTheGatewaysAddress() {
        Settings settings = new Settings(Map.of("SLUICE_PUBLIC_URL", "https://ingest.example", "SLUICE_GATEWAY_PORT", "9090"));
        assertEquals("https://" + KEY + "@ingest.example/7", PublicUrl.from(settings).dsn(KEY, 7));
    }

    @Test
    void aUrlThatIsNotHttpWithAHostIsRefused() {
        for (String bad : new String[] {"ftp://x.example", "sluice.example.com", "https://", "https://u@x.example", "https://x.example?q=1"}) {
            assertThrows(IllegalArgumentException.class, () -> PublicUrl.parse(bad), bad);
        }
    }
}
