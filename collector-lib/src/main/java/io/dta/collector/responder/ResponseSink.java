package io.dta.collector.responder;

import org.agrona.DirectBuffer;

/**
 * Receives the responder's ACK, NAK and ATOMIC ACK frames. The buffer is reused for the next response: copy the
 * bytes out before returning if they are needed later.
 */
@FunctionalInterface
public interface ResponseSink
{
    /**
     * One complete Ethernet frame (no FCS).
     *
     * @param buffer the frame's buffer.
     * @param offset frame start.
     * @param length frame length.
     */
    void onResponse(DirectBuffer buffer, int offset, int length);
}
