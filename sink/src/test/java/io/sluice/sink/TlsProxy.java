package io.sluice.sink;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Terminates TLS in front of the real ClickHouse of the tests, whose clickhouse-local engine cannot
 * open an HTTPS listener ("SYSTEM START LISTEN" supports only TCP and HTTP there). The certificate
 * is self-signed for 127.0.0.1, made with the JDK's keytool; {@link #caFile()} is its PEM.
 */
final class TlsProxy implements AutoCloseable {
    private static final String PASSWORD = "changeit";

    private final ServerSocket server;
    private final Path caFile;

    private TlsProxy(ServerSocket server, Path caFile) {
        this.server = server;
        this.caFile = caFile;
    }

    static TlsProxy start(Path dir, String targetHost, int targetPort) throws Exception {
        Path keyStore = dir.resolve("server.p12");
        Path caFile = dir.resolve("ca.pem");
        keytool("-genkeypair", "-alias", "clickhouse", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-keystore", keyStore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "clickhouse", "-keystore", keyStore.toString(), "-storepass", PASSWORD,
                "-file", caFile.toString());

        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = java.nio.file.Files.newInputStream(keyStore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        ServerSocket server = context.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        TlsProxy proxy = new TlsProxy(server, caFile);
        Thread acceptor = new Thread(() -> proxy.accept(targetHost, targetPort), "tls-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
        return proxy;
    }

    String url() {
        return "https://127.0.0.1:" + server.getLocalPort();
    }

    Path caFile() {
        return caFile;
    }

    private void accept(String targetHost, int targetPort) {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket target = new Socket(targetHost, targetPort);
                pipe(client, target);
                pipe(target, client);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void pipe(Socket from, Socket to) {
        Thread copier = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // a failed handshake or a closed peer ends this connection
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tls-proxy-pipe");
        copier.setDaemon(true);
        copier.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
