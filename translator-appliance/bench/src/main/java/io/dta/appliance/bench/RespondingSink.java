package io.dta.appliance.bench;

import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.HeldFrame;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import io.dta.codec.BthFlyweight;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.Psn;
import io.dta.codec.RoceOpcode;
import io.dta.codec.UdpFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A sink that discards frames but notes what the collector's responder would answer to each, by the rules of the
 * soft responder (collector-lib {@code SoftResponder}): a WRITE is acknowledged only when it carries AckReq, an
 * atomic always, with an ATOMIC ACK. The bench hands the noted answers back to the engine later, so responses
 * arrive at the rate a real collector would send them, after a round trip. Nothing is lost on this link, so the
 * responder's expected PSN is one past the newest PSN it saw; a request on an older PSN (an ACK-timeout probe) is a
 * duplicate and is answered, as the responder does, with an ACK for that expected PSN − 1.
 * <p>
 * A sink that does not answer (an open-loop bench) only counts what it discards.
 */
public final class RespondingSink implements FrameSink
{
    private static final int BTH_OFFSET = EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.MIN_HEADER_LENGTH +
        UdpFlyweight.HEADER_LENGTH;
    private static final int UDP_DEST_PORT_OFFSET = EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.MIN_HEADER_LENGTH +
        2;
    private static final int ROCE_PORT = 4791;
    private static final int CAPACITY = 1 << 14;
    private static final int MAX_QPS = 64;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024));
    private final int[] remoteQpns = new int[CAPACITY];
    private final int[] psns = new int[CAPACITY];
    private final boolean[] atomics = new boolean[CAPACITY];
    private final int[] knownQpns = new int[MAX_QPS];
    private final int[] newestPsns = new int[MAX_QPS];
    private final boolean answering;
    private int knownCount;
    private int head;
    private int count;
    private long frames;
    private long bytes;
    private long lostResponses;

    /**
     * @param answering whether to note the responder's answers; false for an open-loop bench, where nobody answers.
     */
    public RespondingSink(final boolean answering)
    {
        this.answering = answering;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int claim(final int maxLength)
    {
        return 0;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public SendOutcome commit(
        final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
    {
        note(buffer, offset, length);
        return SendOutcome.SENT;
    }

    /**
     * Lets the sender build its held frames in its own staging buffer: this sink only reads them, as a NIC's
     * transmit ring reads an mbuf, so nothing needs copying.
     */
    @Override
    public boolean claimHeld(final HeldFrame frame, final int maxLength)
    {
        frame.useStaging();
        return true;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public SendOutcome commitHeld(final HeldFrame frame, final int length, final long timeNanos, final int reports)
    {
        note(frame.buffer(), frame.offset(), length);
        return SendOutcome.SENT;
    }

    private void note(final DirectBuffer buffer, final int offset, final int length)
    {
        frames++;
        bytes += length;
        if (!answering || ROCE_PORT != (buffer.getShort(offset + UDP_DEST_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF))
        {
            // Only RoCEv2 requests are answered: a NACK to a reporter (sequence gap, sketch gap) is not one.
            return;
        }
        final int opcode = buffer.getByte(offset + BTH_OFFSET + BthFlyweight.OPCODE_OFFSET) & 0xFF;
        final int word = buffer.getInt(offset + BTH_OFFSET + BthFlyweight.ACK_REQ_OFFSET, ByteOrder.BIG_ENDIAN);
        final int remoteQpn = buffer.getInt(offset + BTH_OFFSET + BthFlyweight.DEST_QP_OFFSET - 1,
            ByteOrder.BIG_ENDIAN) & 0xFF_FFFF;
        final int psn = word & 0xFF_FFFF;
        int q = 0;
        while (q < knownCount && knownQpns[q] != remoteQpn)
        {
            q++;
        }
        final boolean duplicate;
        if (q == knownCount)
        {
            if (MAX_QPS == knownCount)
            {
                lostResponses++;
                return;
            }
            knownQpns[q] = remoteQpn;
            newestPsns[q] = psn;
            knownCount++;
            duplicate = false;
        }
        else if (Psn.compare(psn, newestPsns[q]) > 0)
        {
            newestPsns[q] = psn;
            duplicate = false;
        }
        else
        {
            duplicate = true;
        }
        final boolean atomic = RoceOpcode.RC_FETCH_ADD == opcode;
        if (atomic || word < 0)
        {
            if (CAPACITY == count)
            {
                lostResponses++;
                return;
            }
            final int i = (head + count) & (CAPACITY - 1);
            remoteQpns[i] = remoteQpn;
            psns[i] = duplicate ? newestPsns[q] : psn;
            atomics[i] = atomic && !duplicate;
            count++;
        }
    }

    /**
     * @return responses noted and not yet taken.
     */
    public int pending()
    {
        return count;
    }

    /**
     * @return DestQP of the oldest pending response's request.
     */
    public int remoteQpn()
    {
        return remoteQpns[head];
    }

    /**
     * @return PSN of the oldest pending response.
     */
    public int psn()
    {
        return psns[head];
    }

    /**
     * @return whether the oldest pending response is an ATOMIC ACK.
     */
    public boolean atomic()
    {
        return atomics[head];
    }

    /**
     * Drops the oldest pending response (after the caller delivered it).
     */
    public void next()
    {
        head = (head + 1) & (CAPACITY - 1);
        count--;
    }

    /**
     * @return frames taken.
     */
    public long frames()
    {
        return frames;
    }

    /**
     * @return bytes taken.
     */
    public long bytes()
    {
        return bytes;
    }

    /**
     * @return responses not noted because the queue was full (0 in any sane run).
     */
    public long lostResponses()
    {
        return lostResponses;
    }
}
