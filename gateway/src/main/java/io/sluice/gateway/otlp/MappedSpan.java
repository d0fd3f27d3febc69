package io.sluice.gateway.otlp;

import java.util.List;

import io.sluice.gateway.ingest.Rejection;

/**
 * What a span became: a handled request (a transaction, and an error per exception event), or
 * another span, not stored itself (its exception events still are errors), or refused, with why,
 * or over its project's quota, with the 429 ({@code limit}), not decoded. A log record becomes
 * the same: an error, or not stored, or refused, or over the quota.
 */
public record MappedSpan(Kind kind, List<OtlpItem> items, String rejection, Rejection limit) {
    public enum Kind {
        /** A server span: one handled request. */
        REQUEST,
        /** A log record that carries an exception: an error. */
        ERROR,
        /** Any other span or log record: not stored, counted as such. */
        NOT_STORED,
        /** A span that cannot be read (its ids, its text): nothing of it is stored. */
        REJECTED,
        /** A span beyond its project's quota: not decoded, nothing of it stored. */
        OVER_QUOTA
    }

    MappedSpan(Kind kind, List<OtlpItem> items, String rejection) {
        this(kind, items, rejection, null);
    }

    static MappedSpan rejected(String why) {
        return new MappedSpan(Kind.REJECTED, List.of(), why);
    }

    static MappedSpan overQuota(Rejection limit) {
        return new MappedSpan(Kind.OVER_QUOTA, List.of(), null, limit);
    }
}
