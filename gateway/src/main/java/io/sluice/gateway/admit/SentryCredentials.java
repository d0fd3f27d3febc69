package io.sluice.gateway.admit;

import java.net.URI;
import java.util.List;
import java.util.Map;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.sluice.outcomes.Outcome;
import io.sluice.gateway.ingest.Rejection;

/**
 * Where a Sentry SDK puts its DSN's public key: {@code X-Sentry-Auth: Sentry sentry_key=…, …},
 * {@code Authorization: Sentry sentry_key=…}, the query {@code ?sentry_key=…} (browser and Node
 * SDKs), or an envelope header's {@code dsn}. Reading only: whether the key is valid is the
 * {@link Authenticator}'s question.
 */
public final class SentryCredentials {
    private static final String SCHEME = "Sentry ";
    private static final int MAX_KEY_LENGTH = 256;

    private SentryCredentials() {
    }

    /** A DSN as an envelope header names it: its public key and the project id at the end of its path. */
    public record Dsn(String publicKey, long projectId) {
    }

    /**
     * The public key the head presents, or null when it presents none. Several sources that
     * disagree get 400; a Bearer key (a private key is no DSN key) or another scheme 401.
     */
    public static String fromHead(String xSentryAuth, String authorization, String uri) {
        String fromHeader = xSentryAuth == null ? null : fromAuthHeader(xSentryAuth, "X-Sentry-Auth");
        String fromAuthorization = authorization == null ? null : fromAuthHeader(authorization, "Authorization");
        String fromQuery = fromQuery(uri);
        String key = null;
        for (String presented : new String[] {fromHeader, fromAuthorization, fromQuery}) {
            if (presented == null) {
                continue;
            }
            if (key != null && !key.equals(presented)) {
                throw conflicting();
            }
            key = presented;
        }
        return key;
    }

    /** {@code Sentry sentry_key=abc, sentry_version=7, sentry_client=…}: the key, or 401. */
    static String fromAuthHeader(String value, String header) {
        String text = value.strip();
        if (!text.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            throw new Rejection(Outcome.UNAUTHORIZED, header + " must be 'Sentry sentry_key=<public key of the DSN>, "
                    + "sentry_version=7'; a private (Bearer) key is for /api/v1/ only");
        }
        for (String part : text.substring(SCHEME.length()).split(",")) {
            int equals = part.indexOf('=');
            if (equals > 0 && part.substring(0, equals).strip().equals("sentry_key")) {
                return checked(part.substring(equals + 1).strip());
            }
        }
        throw new Rejection(Outcome.UNAUTHORIZED, header + " has no sentry_key");
    }

    static String fromQuery(String uri) {
        if (uri.indexOf('?') < 0) {
            return null;
        }
        Map<String, List<String>> parameters = new QueryStringDecoder(uri).parameters();
        List<String> keys = parameters.get("sentry_key");
        if (keys == null || keys.isEmpty()) {
            return null;
        }
        if (keys.stream().distinct().count() > 1) {
            throw conflicting();
        }
        return checked(keys.get(0).strip());
    }

    /** The DSN of an envelope header, or a 400 when it is not one. */
    public static Dsn parseDsn(String dsn) {
        try {
            URI uri = new URI(dsn);
            String user = uri.getRawUserInfo();
            String path = uri.getPath();
            if (user == null || path == null) {
                throw new IllegalArgumentException("no key or path");
            }
            int colon = user.indexOf(':'); // a legacy DSN has key:secret; the secret is not used
            String key = checked(colon < 0 ? user : user.substring(0, colon));
            String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
            String id = trimmed.substring(trimmed.lastIndexOf('/') + 1);
            if (id.isEmpty() || id.length() > 15 || !id.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("no project id");
            }
            return new Dsn(key, Long.parseLong(id));
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            throw new Rejection(Outcome.INVALID_ENVELOPE,
                    "the envelope header's 'dsn' is not a DSN such as https://<public key>@host/<project id>");
        }
    }

    private static String checked(String key) {
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            throw new Rejection(Outcome.UNAUTHORIZED, "sentry_key is empty or too long");
        }
        return key;
    }

    static Rejection conflicting() {
        return new Rejection(Outcome.BAD_REQUEST,
                "the request names different sentry_keys (X-Sentry-Auth, Authorization, query or the envelope's dsn); send one");
    }
}
