package io.sluice.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

import io.sluice.config.Setting;
import io.sluice.config.Settings;
import io.sluice.gateway.GatewayConfig;

/**
 * Where Sentry SDKs reach the gateway, for the DSNs the CLI prints:
 * {@code <scheme>://<publicKey>@<host>[:port][/path]/<numeric id>}.
 */
record PublicUrl(String scheme, String host, int port, String path) {
    static final Setting SETTING = new Setting("SLUICE_PUBLIC_URL", "",
            "Base URL SDKs reach the gateway at (such as https://sluice.example.com), for the DSNs `./sluice projects` "
                    + "prints; empty: http://SLUICE_GATEWAY_HOST:SLUICE_GATEWAY_PORT.");
    static final List<Setting> SETTINGS = List.of(SETTING);

    /** @throws IllegalArgumentException when the setting is not an http(s) URL with a host */
    static PublicUrl from(Settings settings) {
        String configured = settings.get(SETTING).strip();
        if (configured.isEmpty()) {
            String host = settings.get(GatewayConfig.HOST);
            // A wildcard bind address is no address to send to; this machine is the best guess.
            if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
                host = "127.0.0.1";
            }
            return new PublicUrl("http", host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host,
                    settings.getInt(GatewayConfig.PORT), "");
        }
        return parse(configured);
    }

    static PublicUrl parse(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw invalid(url);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getRawUserInfo() != null
                || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw invalid(url);
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return new PublicUrl(scheme, uri.getHost(), uri.getPort(), path);
    }

    String dsn(String publicKey, long projectId) {
        return scheme + "://" + publicKey + "@" + host + (port < 0 ? "" : ":" + port) + path + "/" + projectId;
    }

    private static IllegalArgumentException invalid(String url) {
        return new IllegalArgumentException(SETTING.name() + " must be an http:// or https:// URL with a host "
                + "(and at most a path), got " + url);
    }
}
