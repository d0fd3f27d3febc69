package io.sluice.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** wrk's output is read from the one line of JSON the bench's script prints when wrk is done. */
class WrkSummaryTest {
    private static final String OUTPUT = """
            Running 5s test @ http://127.0.0.1:8080/api/42/envelope/?sentry_key=k
              1 threads and 1 connections
            {"requests":1250,"duration_us":5000000,"non2xx":2,"errors":1,"p50":2430,"p99":8500,"p999":14250}
            """;

    @Test
    void theSummaryKeepsHowManyRequestsItsPercentilesAreOf() throws Exception {
        assertEquals(new Wrk.Result(250, 2.43, 8.5, 14.25, 2, 1, 1_250), Wrk.summary(OUTPUT));
    }
}
