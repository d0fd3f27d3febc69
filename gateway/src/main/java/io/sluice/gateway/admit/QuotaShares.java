package io.sluice.gateway.admit;

/**
 * This gateway's part of each quota, where the quota is shared by several gateways: the
 * {@link QuotaLimiter} allows that part of the quota's rate and burst here, and tells it how many
 * events each quota was asked for, which is what the parts follow.
 */
public interface QuotaShares {
    /** A gateway alone: the whole of every quota. */
    QuotaShares WHOLE = new QuotaShares() {
        @Override
        public double shareOf(String quotaKey) {
            return 1;
        }

        @Override
        public void asked(String quotaKey) {
        }
    };

    /** The part, above 0 and at most 1, of the quota named {@code quotaKey} this gateway may allow now. */
    double shareOf(String quotaKey);

    /** One event was asked of the quota named {@code quotaKey} here, admitted or not. */
    void asked(String quotaKey);
}
