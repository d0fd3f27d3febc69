package io.sluice.gateway.http;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.util.ReferenceCounted;
import io.sluice.gateway.admit.Admitted;

/**
 * An admitted request whose body arrived, as {@link BodyLimit} passes it on: counted as its
 * request's buffer is, so that whoever drops it releases the body.
 */
record AdmittedRequest(Admitted admitted, FullHttpRequest request) implements ReferenceCounted {
    @Override
    public int refCnt() {
        return request.refCnt();
    }

    @Override
    public AdmittedRequest retain() {
        request.retain();
        return this;
    }

    @Override
    public AdmittedRequest retain(int increment) {
        request.retain(increment);
        return this;
    }

    @Override
    public AdmittedRequest touch() {
        request.touch();
        return this;
    }

    @Override
    public AdmittedRequest touch(Object hint) {
        request.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return request.release();
    }

    @Override
    public boolean release(int decrement) {
        return request.release(decrement);
    }
}
