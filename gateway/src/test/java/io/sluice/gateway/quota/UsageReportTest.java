package io.sluice.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;

class UsageReportTest {
    @Test
    void aReportReadsBackAsWritten() {
        UsageReport report = new UsageReport("g1", false, Map.of("6WBs8YTmGIWkG53K-8Q2ww", 41, "6WBs8YTmGIWkG53K-8Q2ww/transaction", 7));
        assertEquals(report, UsageReport.read("g1", report.value()));
        UsageReport leaving = new UsageReport("g1", true, Map.of());
        assertEquals(leaving, UsageReport.read("g1", leaving.value()));
    }

    @Test
    void aQuotaCostsItsKeyAndSixBytes() {
        assertEquals(6, new UsageReport("g", false, Map.of()).value().length);
        assertEquals(6 + 2 + 22 + 4, new UsageReport("g", false, Map.of("6WBs8YTmGIWkG53K-8Q2ww", 1)).value().length);
    }

    @Test
    void aReportOfAnotherVersionOrCutShortIsRefused() {
        byte[] value = new UsageReport("g", false, Map.of("p", 1)).value();
        byte[] otherVersion = value.clone();
        otherVersion[0] = 2;
        assertThrows(IllegalArgumentException.class, () -> UsageReport.read("g", otherVersion));
        assertThrows(IllegalArgumentException.class, () -> UsageReport.read("g", java.util.Arrays.copyOf(value, value.length - 1)));
    }

    @Test
    void aReportWithANegativeCountIsRefusedWithoutNamingItsQuota() {
        byte[] value = new UsageReport("g", false, Map.of("6WBs8YTmGIWkG53K-8Q2ww", 1)).value();
        java.nio.ByteBuffer.wrap(value).putInt(value.length - 4, -1);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> UsageReport.read("g", value));
        assertEquals("quota usage record with a negative count (-1)", refused.getMessage());
    }

    @Test
    void aReportWithFlagsOtherThanLeavingIsRefused() {
        byte[] value = new UsageReport("g", false, Map.of()).value();
        value[1] = 2;
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> UsageReport.read("g", value));
        assertEquals("quota usage record with flags 2, this gateway reads 0 or 1", refused.getMessage());
    }

    @Test
    void aReportNamingMoreThanMaxQuotasIsReadUpToMaxQuotas() {
        Map<String, Integer> asked = new java.util.HashMap<>();
        for (int i = 0; i <= UsageReport.MAX_QUOTAS; i++) {
            asked.put("q" + i, 1);
        }
        byte[] overTheCap = new UsageReport("g", false, asked).value();
        assertEquals(UsageReport.MAX_QUOTAS, UsageReport.read("g", overTheCap).asked().size());
    }
}
