package io.sluice.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** HTTP/1.1 over a plain socket, for what java.net.http will not do: pipelining, slow or broken requests. */
final class RawHttp implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    /** The headers of the response read last, by lower-case name. */
    private Map<String, String> headers = Map.of();

    RawHttp(int port) throws IOException {
        this(port, "127.0.0.1");
    }

    /** From this local address (any of 127.0.0.0/8 on Linux): another client as the gateway sees it. */
    RawHttp(int port, String localAddress) throws IOException {
        socket = new Socket(java.net.InetAddress.getByName("127.0.0.1"), port, java.net.InetAddress.getByName(localAddress), 0);
        socket.setSoTimeout(15_000);
        in = socket.getInputStream();
    }

    static String post(String path, String key, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    void sendBytes(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    void send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
    }

    /** Reads one response: its status code and body. */
    Response read() throws IOException {
        String statusLine = line();
        int contentLength = 0;
        Map<String, String> read = new HashMap<>();
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            read.put(header.substring(0, colon).strip().toLowerCase(Locale.ROOT), header.substring(colon + 1).strip());
            if (header.toLowerCase().startsWith("content-length:")) {
                contentLength = Integer.parseInt(header.substring(15).strip());
            }
        }
        headers = Map.copyOf(read);
        byte[] body = in.readNBytes(contentLength);
        return new Response(Integer.parseInt(statusLine.split(" ")[1]), new String(body, StandardCharsets.UTF_8));
    }

    /** A header of the response read last, or empty. */
    String header(String name) {
        return headers.getOrDefault(name.toLowerCase(Locale.ROOT), "");
    }

    List<Response> read(int count) throws IOException {
        List<Response> responses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            responses.add(read());
        }
        return responses;
    }

    /** True when the server closed the connection (read returns end of stream). */
    boolean closedByServer() throws IOException {
        return in.read() == -1;
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b == -1) {
                throw new IOException("connection closed by the server");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    record Response(int status, String body) {
    }
}
