package dev.switchboard.gateway;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.HttpHeaders;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.util.Iterator;
import java.util.Map;

/**
 * A relayed call as it goes to the agent: {@code POST uri HTTP/1.1}, the headers, the body — written into one
 * buffer, so the call leaves in one write. (Netty's encoder writes head and body as two buffers, with a promise
 * combiner and a copy of the body into direct memory on the way.) The headers are a Vert.x header map, which refused
 * any name or value with a line break when it was filled; characters are written as ISO-8859-1, as Netty's encoder
 * writes them.
 */
record AgentRequest(String uri, HttpHeaders headers, Buffer body) {

    private static final byte[] POST = {'P', 'O', 'S', 'T', ' '};
    private static final byte[] VERSION = {' ', 'H', 'T', 'T', 'P', '/', '1', '.', '1', '\r', '\n'};
    private static final byte[] COLON = {':', ' '};
    private static final byte[] CRLF = {'\r', '\n'};

    ByteBuf encode(ByteBufAllocator alloc) {
        int size = POST.length + uri.length() + VERSION.length + CRLF.length + body.length();
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iteratorCharSequence(); it.hasNext(); ) {
            Map.Entry<CharSequence, CharSequence> h = it.next();
            size += h.getKey().length() + COLON.length + h.getValue().length() + CRLF.length;
        }
        ByteBuf out = alloc.directBuffer(size);
        out.writeBytes(POST);
        ByteBufUtil.writeAscii(out, uri);
        out.writeBytes(VERSION);
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iteratorCharSequence(); it.hasNext(); ) {
            Map.Entry<CharSequence, CharSequence> h = it.next();
            ByteBufUtil.writeAscii(out, h.getKey());
            out.writeBytes(COLON);
            ByteBufUtil.writeAscii(out, h.getValue());
            out.writeBytes(CRLF);
        }
        out.writeBytes(CRLF);
        out.writeBytes(((BufferInternal) body).getByteBuf());
        return out;
    }
}
