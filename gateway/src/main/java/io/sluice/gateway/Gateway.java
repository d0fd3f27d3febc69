package io.sluice.gateway;

import java.net.InetSocketAddress;
import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.sluice.config.TopicSetup;
import io.sluice.ingest.EventPublisher;
import io.sluice.projects.ProjectRegistry;

/**
 * A running gateway: the project registry it authenticates against, the producer it publishes
 * with, and the HTTP server. {@link #start} returns once it accepts requests; {@link #close}
 * stops accepting, lets in-flight requests finish, and flushes the producer.
 */
public final class Gateway implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

    private final ProjectRegistry registry;
    private final EventPublisher publisher;
    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    private final Channel serverChannel;

    private Gateway(ProjectRegistry registry, EventPublisher publisher, EventLoopGroup acceptor,
                    EventLoopGroup workers, Channel serverChannel) {
        this.registry = registry;
        this.publisher = publisher;
        this.acceptor = acceptor;
        this.workers = workers;
        this.serverChannel = serverChannel;
    }

    public static Gateway start(GatewayConfig config) throws InterruptedException {
        TopicSetup.ensureTopics(config.kafka());
        ProjectRegistry registry = new ProjectRegistry(config.kafka().bootstrapServers(), config.kafka().topics().projects());
        if (!registry.awaitLoaded(config.readyTimeout())) {
            registry.close();
            throw new IllegalStateException("the project registry (" + config.kafka().topics().projects()
                    + ") did not load within " + config.readyTimeout().toSeconds() + " s");
        }
        EventPublisher publisher = new EventPublisher(
                EventPublisher.durableProducer(config.kafka().bootstrapServers(), config.publishTimeout()),
                config.kafka().topics());
        EventLoopGroup acceptor = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        Channel channel;
        try {
            publisher.warmUp(config.readyTimeout());
            channel = new ServerBootstrap()
                    .group(acceptor, workers)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new GatewayInitializer(config, registry, publisher))
                    .bind(new InetSocketAddress(config.host(), config.port()))
                    .sync().channel();
        } catch (RuntimeException | InterruptedException e) {
            acceptor.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
            workers.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
            publisher.close();
            registry.close();
            throw e;
        }
        LOG.info("gateway listening on {}:{} ({} projects)", config.host(), config.port(), registry.size());
        return new Gateway(registry, publisher, acceptor, workers, channel);
    }

    /** The port actually bound (differs from the configured one when that was 0). */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        Duration quietPeriod = Duration.ofMillis(200);
        Duration timeout = Duration.ofSeconds(15);
        acceptor.shutdownGracefully(quietPeriod.toMillis(), timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        publisher.close(); // completes in-flight sends, whose callbacks answer their clients
        workers.shutdownGracefully(quietPeriod.toMillis(), timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
                .syncUninterruptibly();
        registry.close();
        LOG.info("gateway stopped");
    }
}
