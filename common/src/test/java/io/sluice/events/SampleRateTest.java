package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class SampleRateTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static SampleRate of(String json) throws Exception {
        JsonNode event = JSON.readTree(json);
        return TransactionFields.of(event).sampleRate();
    }

    @Test
    void aV1SampleRateIsTheRateCounted() throws Exception {
        SampleRate rate = of("{\"transaction\": \"GET /a\", \"sample_rate\": 0.25}");
        assertEquals(0.25, rate.rate());
        assertEquals(4_000_000L, rate.weightMillionths());
        assertNull(rate.invalidAt());
    }

    @Test
    void aSampleRateSentAsTextIsRead() throws Exception {
        assertEquals(0.5, of("{\"transaction\": \"GET /a\", \"sample_rate\": \"0.5\"}").rate());
    }

    @Test
    void theEventTraceContextsSentrySampleRateIsRead() throws Exception {
        SampleRate rate = of("{\"transaction\": \"GET /a\", \"contexts\": {\"trace\": {\"data\": {\"sentry.sample_rate\": 0.1}}}}");
        assertEquals(0.1, rate.rate());
        assertEquals(10_000_000L, rate.weightMillionths());
    }

    @Test
    void theTopLevelSampleRateComesBeforeTheTraceContexts() throws Exception {
        assertEquals(0.25, of("{\"transaction\": \"GET /a\", \"sample_rate\": 0.25,"
                + " \"contexts\": {\"trace\": {\"data\": {\"sentry.sample_rate\": 0.1}}}}").rate());
    }

    @Test
    void aMissingSampleRateCountsAsOne() throws Exception {
        SampleRate rate = of("{\"transaction\": \"GET /a\"}");
        assertEquals(1.0, rate.rate());
        assertEquals(1_000_000L, rate.weightMillionths());
        assertNull(rate.invalidAt());
    }

    @Test
    void aZeroSampleRateCountsAsOneAndIsInvalid() throws Exception {
        SampleRate rate = of("{\"transaction\": \"GET /a\", \"sample_rate\": 0}");
        assertEquals(1.0, rate.rate());
        assertEquals("sample_rate", rate.invalidAt());
    }

    @Test
    void aSampleRateAboveOneCountsAsOneAndIsInvalid() throws Exception {
        SampleRate rate = of("{\"transaction\": \"GET /a\", \"contexts\": {\"trace\": {\"data\": {\"sentry.sample_rate\": 1.5}}}}");
        assertEquals(1.0, rate.rate());
        assertEquals("trace_data", rate.invalidAt());
    }

    @Test
    void aNegativeSampleRateCountsAsOneAndIsInvalid() throws Exception {
        assertEquals("sample_rate", of("{\"transaction\": \"GET /a\", \"sample_rate\": -0.5}").invalidAt());
    }

    @Test
    void aSampleRateThatIsNotANumberCountsAsOneAndIsInvalid() throws Exception {
        SampleRate rate = of("{\"transaction\": \"GET /a\", \"sample_rate\": \"NaN\"}");
        assertEquals(1.0, rate.rate());
        assertEquals("sample_rate", rate.invalidAt());
        assertEquals("sample_rate", of("{\"transaction\": \"GET /a\", \"sample_rate\": \"a quarter\"}").invalidAt());
        assertEquals("sample_rate", of("{\"transaction\": \"GET /a\", \"sample_rate\": [0.25]}").invalidAt());
    }

    @Test
    void theRateTravelsInTheFieldsHeader() throws Exception {
        TransactionFields fields = TransactionFields.of(JSON.readTree("{\"transaction\": \"GET /a\", \"sample_rate\": 0.25}"));
        org.apache.kafka.common.header.internals.RecordHeaders headers = new org.apache.kafka.common.header.internals.RecordHeaders();
        headers.add(FieldsHeader.NAME, fields.toHeader(100_000));
        assertEquals(0.25, TransactionFields.fromHeader(headers).sampleRate().rate());
    }
}
