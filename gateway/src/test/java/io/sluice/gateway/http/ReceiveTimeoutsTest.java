package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

/** A request's body has the receive timeout to arrive, counted from when its client may send it. */
class ReceiveTimeoutsTest {
    private final EmbeddedChannel connection = new EmbeddedChannel(new ReceiveTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(10)));

    @AfterEach
    void close() {
        connection.finishAndReleaseAll();
    }

    @Test
    void aBodyNotCompleteWithinTheReceiveTimeoutIsRefused408() {
        connection.freezeTime();
        connection.writeInbound(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/"));

        elapse(11);

        assertEquals(HttpResponseStatus.REQUEST_TIMEOUT, answerStatus());
    }

    /** A client that waits for "100 Continue" sends its body only then: it has the whole timeout from there. */
    @Test
    void theReceiveTimeoutStartsAgainWithA100Continue() {
        connection.freezeTime();
        connection.writeInbound(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/"));
        elapse(8); // the requests before it were being answered

        connection.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER));
        ReferenceCountUtil.release(connection.readOutbound());
        elapse(8);

        assertNull(connection.readOutbound(), "no 408 within 10 s of the 100");
        elapse(3);
        assertEquals(HttpResponseStatus.REQUEST_TIMEOUT, answerStatus());
    }

    private void elapse(long seconds) {
        connection.advanceTimeBy(seconds, TimeUnit.SECONDS);
        connection.runScheduledPendingTasks();
    }

    private HttpResponseStatus answerStatus() {
        FullHttpResponse answer = connection.readOutbound();
        HttpResponseStatus status = answer.status();
        answer.release();
        return status;
    }
}
