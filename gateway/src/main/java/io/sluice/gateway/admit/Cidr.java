package io.sluice.gateway.admit;

import java.net.InetAddress;
import java.util.Arrays;

import io.netty.util.NetUtil;

/** A block of IP addresses, {@code 10.0.0.0/8} or {@code 2001:db8::/32}; a bare address is a block of one. */
public final class Cidr {
    private final byte[] network;
    private final int prefixLength;

    private Cidr(byte[] network, int prefixLength) {
        this.network = network;
        this.prefixLength = prefixLength;
    }

    public static Cidr parse(String text) {
        String trimmed = text.strip();
        int slash = trimmed.indexOf('/');
        String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
        // A literal only: parsing never resolves a name.
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
        if (bytes == null) {
            throw new IllegalArgumentException("not an IP address or CIDR block: '" + text + "'");
        }
        int bits = bytes.length * 8;
        int prefix;
        try {
            prefix = slash < 0 ? bits : Integer.parseInt(trimmed.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a CIDR prefix length: '" + text + "'");
        }
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("prefix length out of range 0.." + bits + ": '" + text + "'");
        }
        return new Cidr(masked(bytes, prefix), prefix);
    }

    public boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        return bytes.length == network.length && Arrays.equals(masked(bytes, prefixLength), network);
    }

    /** The address with every bit after the first {@code prefix} cleared. */
    static byte[] masked(byte[] address, int prefix) {
        byte[] out = address.clone();
        for (int i = 0; i < out.length; i++) {
            int keep = Math.min(8, Math.max(0, prefix - 8 * i));
            out[i] &= (byte) (0xff << (8 - keep));
        }
        return out;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixLength;
        } catch (java.net.UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
