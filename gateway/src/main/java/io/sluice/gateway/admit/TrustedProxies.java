package io.sluice.gateway.admit;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

import io.netty.util.NetUtil;

/**
 * Who the client is. Normally the peer of the connection. When the peer is a trusted proxy (a
 * load balancer or ingress in one of the configured blocks), the client is the right-most
 * {@code X-Forwarded-For} address that is not itself a trusted proxy: every address right of it
 * was appended by a proxy we trust, while anything left of it the client may have written. From
 * an untrusted peer the header is ignored, so nobody can pick their own address.
 */
public final class TrustedProxies {
    public static final TrustedProxies NONE = new TrustedProxies(List.of());

    private final List<Cidr> blocks;

    private TrustedProxies(List<Cidr> blocks) {
        this.blocks = blocks;
    }

    /** Comma-separated CIDR blocks (or single addresses); empty for none. */
    public static TrustedProxies parse(String commaSeparated) {
        List<Cidr> blocks = Arrays.stream(commaSeparated.split(","))
                .filter(part -> !part.isBlank()).map(Cidr::parse).toList();
        return blocks.isEmpty() ? NONE : new TrustedProxies(blocks);
    }

    public boolean trusts(InetAddress address) {
        for (Cidr block : blocks) {
            if (block.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when a request names a forwarded client that is ignored because its peer is no trusted
     * proxy: behind a load balancer missing from the trusted blocks, every client is the balancer.
     */
    public boolean ignoresForwarding(InetAddress peer, List<String> forwardedFor) {
        return peer != null && !forwardedFor.isEmpty() && !trusts(peer);
    }

    /**
     * @param peer        the connection's remote address (null when unknown)
     * @param forwardedFor the values of every {@code X-Forwarded-For} header, in order
     */
    public InetAddress clientOf(InetAddress peer, List<String> forwardedFor) {
        if (peer == null || blocks.isEmpty() || !trusts(peer)) {
            return peer;
        }
        InetAddress client = peer;
        for (int header = forwardedFor.size() - 1; header >= 0; header--) {
            String[] hops = forwardedFor.get(header).split(",");
            for (int i = hops.length - 1; i >= 0; i--) {
                InetAddress hop = literal(hops[i]);
                if (hop == null) {
                    return client; // not an address: the last trusted hop is all we know
                }
                if (!trusts(hop)) {
                    return hop;
                }
                client = hop;
            }
        }
        return client; // only trusted proxies: the left-most of them
    }

    /** An address as proxies write it ({@code 1.2.3.4}, {@code 1.2.3.4:80}, {@code 2001:db8::1}, {@code [2001:db8::1]:80}), or null. */
    static InetAddress literal(String hop) {
        String text = hop.strip();
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            text = close < 0 ? "" : text.substring(1, close);
        } else if (text.indexOf(':') >= 0 && text.indexOf(':') == text.lastIndexOf(':')) {
            text = text.substring(0, text.indexOf(':')); // IPv4 with a port
        }
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(text);
        if (bytes == null) {
            return null;
        }
        try {
            return InetAddress.getByAddress(bytes); // no lookup: the bytes are the address
        } catch (UnknownHostException impossible) {
            return null;
        }
    }

    @Override
    public String toString() {
        return blocks.toString();
    }
}
