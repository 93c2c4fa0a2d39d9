package io.dta.appliance.demo;

import io.dta.codec.DethFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.Icrc;
import io.dta.codec.RoceOpcode;
import io.dta.collector.responder.ResponderQp;
import io.dta.collector.responder.SoftResponder;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The collector's side of the demo's link, with the faults a test may ask of it: a request refused for a wrong R_Key
 * (NAK remote access error), connection set-up ignored afterwards, a QP vanished without a word, a connection ended
 * by the collector (DREQ). Every frame that reaches the collector goes through {@link #deliver}, which counts the
 * requests, acts out the faults asked for and hands the rest to the soft responder.
 */
final class CollectorFaults
{
    /** R_Key offset in a request the engine builds: Ethernet, IPv4 (20), UDP, BTH, then RETH or AtomicETH. */
    private static final int RKEY_OFFSET = 14 + 20 + 8 + 12 + 8;
    private static final int IP_OFFSET = 14;

    private final SoftResponder responder;
    private final FrameDecoder decoder = new FrameDecoder();
    private final UnsafeBuffer mangled;
    private final Icrc icrc = new Icrc();
    private final LongArrayList ignoredSetUpNanos = new LongArrayList();
    long injectAt;
    private long requestsSeen;
    private long injected;
    boolean ignoreSetUpAfterError;
    long loseAt;
    private long requestsSeenForLoss;
    private int lostQpn = -1;
    private int lostQpCollectorIp;
    private long silentlyDropped;
    long disconnectAt;
    private long requestsSeenForDisconnect;
    private long collectorDisconnects;

    /**
     * @param responder    the soft collector.
     * @param largestFrame the largest frame the translator sends.
     */
    CollectorFaults(final SoftResponder responder, final int largestFrame)
    {
        this.responder = responder;
        this.mangled = new UnsafeBuffer(ByteBuffer.allocateDirect(LossyLink.slotFor(largestFrame)));
    }

    /**
     * A frame reaches the collector: dropped, refused, or answered, as the faults asked for say.
     *
     * @param ring         frame memory.
     * @param offset       frame start.
     * @param length       frame length.
     * @param now          virtual time of arrival.
     * @param engineUp     whether the translator's engine exists (requests are counted from then on).
     * @param toTranslator the link the collector answers on.
     */
    void deliver(
        final DirectBuffer ring,
        final int offset,
        final int length,
        final long now,
        final boolean engineUp,
        final LossyLink toTranslator)
    {
        if (ignoreSetUpAfterError && injected > 0 && isSetUpMessage(ring, offset, length))
        {
            ignoredSetUpNanos.addLong(now);
            return;
        }
        if (lostQpn >= 0 && isSetUpMessage(ring, offset, length))
        {
            // The reconnection's REQ: the collector has a QP for the region again.
            lostQpn = -1;
        }
        else if (lostQpn >= 0 && FrameKind.ROCE == decoder.kind() && decoder.bth().destQp() == lostQpn &&
            decoder.ipv4().dst() == lostQpCollectorIp)
        {
            silentlyDropped++;
            return;
        }
        else if (loseAt > 0 && engineUp && isRefusable(ring, offset, length) && ++requestsSeenForLoss == loseAt)
        {
            lostQpn = decoder.bth().destQp();
            lostQpCollectorIp = decoder.ipv4().dst();
            silentlyDropped++;
            return;
        }
        if (disconnectAt > 0 && engineUp && isRefusable(ring, offset, length) &&
            ++requestsSeenForDisconnect == disconnectAt &&
            responder.disconnect(decoder.ipv4().dst(), decoder.bth().destQp(), now, toTranslator))
        {
            collectorDisconnects++;
        }
        if (injectAt > 0 && engineUp && isRefusable(ring, offset, length) && ++requestsSeen == injectAt)
        {
            mangled.putBytes(0, ring, offset, length);
            mangled.putInt(RKEY_OFFSET, ~mangled.getInt(RKEY_OFFSET, ByteOrder.BIG_ENDIAN), ByteOrder.BIG_ENDIAN);
            icrc.writeInPlace(mangled, IP_OFFSET, length - Icrc.LENGTH);
            injected++;
            responder.onFrame(mangled, 0, length, now, toTranslator);
        }
        else
        {
            responder.onFrame(ring, offset, length, now, toTranslator);
        }
    }

    /**
     * @return DREQs the collector was made to send.
     */
    long collectorDisconnects()
    {
        return collectorDisconnects;
    }

    /**
     * @return frames dropped unanswered for the QP that vanished.
     */
    long silentlyDropped()
    {
        return silentlyDropped;
    }

    /**
     * @return virtual times at which CM messages reached the deaf collector.
     */
    long[] ignoredSetUpNanos()
    {
        return ignoredSetUpNanos.toLongArray();
    }

    /**
     * @return requests the collector was made to refuse.
     */
    long injected()
    {
        return injected;
    }

    private boolean isSetUpMessage(final DirectBuffer ring, final int offset, final int length)
    {
        return FrameKind.ROCE == decoder.decode(ring, offset, length) &&
            RoceOpcode.UD_SEND_ONLY == decoder.roceOpcode() && DethFlyweight.GSI_QPN == decoder.bth().destQp();
    }

    private boolean isRefusable(final DirectBuffer ring, final int offset, final int length)
    {
        if (FrameKind.ROCE != decoder.decode(ring, offset, length) || decoder.ipv4().headerLength() != 20)
        {
            return false;
        }
        final int opcode = decoder.roceOpcode();
        return (RoceOpcode.RC_FETCH_ADD == opcode ||
            (RoceOpcode.RC_RDMA_WRITE_ONLY == opcode && decoder.payloadLength() > 0)) && isNextInSequence();
    }

    /**
     * Whether the collector will execute the decoded request: its QP expects exactly this PSN. A request after a
     * loss is dropped as out of sequence before its R_Key is looked at, so refusing it would refuse nothing.
     */
    private boolean isNextInSequence()
    {
        final int destQp = decoder.bth().destQp();
        for (final ResponderQp qp : responder.qps())
        {
            if (qp.qpn() == destQp && qp.collector().ip() == decoder.ipv4().dst() &&
                qp.expectedPsn() == decoder.bth().psn())
            {
                return true;
            }
        }
        return false;
    }
}
