package io.sluice.processor.rows;

/** What errors are grouped by, besides the minute. */
public record ErrorKey(String project, String environment, String exceptionType) {
    public static ErrorKey of(ErrorFact fact) {
        return new ErrorKey(fact.project(), fact.environment(), fact.exceptionType());
    }

    /** What the series limit counts as one series of errors_1m: the key but its project, written as {@link RoutedKey#fullSeries()}. */
    public String series() {
        return RoutedKey.fullSeries(environment, exceptionType);
    }
}
