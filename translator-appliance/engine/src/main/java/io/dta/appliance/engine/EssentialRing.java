package io.dta.appliance.engine;

import io.dta.codec.Psn;
import io.dta.config.EssentialConfig;
import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * A bounded FIFO of essential operations for one QP, kept until the collector acknowledges them.
 * <p>
 * Entries move through three regions: {@code [ackHead, sendHead)} were sent and await an acknowledgement
 * (their PSN is known), {@code [sendHead, tail)} wait to be sent (grace period, paused QP, no atomic credit).
 * A resynchronisation moves {@code sendHead} back so that the entries the responder never executed are sent
 * again with new PSNs; an acknowledgement pops entries from {@code ackHead}. Storage is preallocated, so
 * nothing is allocated per operation.
 * <p>
 * Each entry keeps the number of reports it carries ({@link EngineCounter}): an entry is never dropped once
 * offered, so those reports are delivered when it is acknowledged, however often it was sent.
 */
final class EssentialRing
{
    static final byte WRITE = 1;
    static final byte FETCH_ADD = 2;

    /**
     * Largest payload an essential WRITE can carry (an Append record of 16 entries plus its trailer fits).
     */
    static final int MAX_PAYLOAD = EssentialConfig.ENTRY_BYTES;

    private final int capacity;
    // Storage is a power of two long so that positions map to slots by mask, not by a long modulo.
    private final int mask;
    private final int maxPayload;
    private final byte[] type;
    private final long[] va;
    private final long[] add;
    private final int[] payloadLength;
    private final int[] psn;
    private final int[] reports;
    private final UnsafeBuffer payloads;
    private long ackHead;
    private long sendHead;
    private long tail;

    EssentialRing(final int capacity)
    {
        this(capacity, MAX_PAYLOAD);
    }

    /**
     * @param capacity   entries.
     * @param maxPayload largest WRITE payload an entry keeps (a sketch QP's column runs are larger than
     *                   {@link #MAX_PAYLOAD}).
     */
    EssentialRing(final int capacity, final int maxPayload)
    {
        this.capacity = capacity;
        this.maxPayload = maxPayload;
        final int slots = BitUtil.findNextPositivePowerOfTwo(Math.max(1, capacity));
        if ((long)slots * maxPayload > Integer.MAX_VALUE)
        {
            // Configuration refuses such a sketch; without this the int product would wrap into a wrong-sized buffer.
            throw new IllegalArgumentException(slots + " essential ring entries x " + maxPayload +
                " bytes is more than one buffer can hold; lower essential.backlog or the sketch's batchColumns");
        }
        this.mask = slots - 1;
        type = new byte[slots];
        va = new long[slots];
        add = new long[slots];
        payloadLength = new int[slots];
        psn = new int[slots];
        reports = new int[slots];
        payloads = new UnsafeBuffer(allocate(slots * maxPayload));
    }

    private static ByteBuffer allocate(final int bytes)
    {
        try
        {
            return ByteBuffer.allocateDirect(bytes);
        }
        catch (final OutOfMemoryError ex)
        {
            // Configuration keeps all rings within EssentialConfig.MAX_RING_BYTES; a JVM with less direct memory than
            // that (a small heap) still cannot start: say which settings matter instead of the JVM's bare error.
            throw new IllegalStateException("cannot reserve " + bytes + " bytes of direct memory for a QP's " +
                "essential ring (essential.backlog entries of its largest WRITE): lower essential.backlog, or give " +
                "the JVM more with DTA_JAVA_OPTS=-XX:MaxDirectMemorySize=...", ex);
        }
    }

    boolean isFull()
    {
        return tail - ackHead >= capacity;
    }

    /**
     * @param operations entries wanted.
     * @return true when that many more fit.
     */
    boolean hasRoom(final int operations)
    {
        return tail - ackHead + operations <= capacity;
    }

    /**
     * @return true when at least half the entries are taken: the QP asks for ACKs at once, so entries free before the
     * ring fills.
     */
    boolean isHalfFull()
    {
        return 2 * (tail - ackHead) >= capacity;
    }

    boolean hasUnsent()
    {
        return sendHead < tail;
    }

    boolean hasUnacknowledged()
    {
        return ackHead < sendHead;
    }

    int size()
    {
        return (int)(tail - ackHead);
    }

    boolean offerWrite(
        final long address, final DirectBuffer src, final int offset, final int length, final int carried)
    {
        if (isFull() || length > maxPayload)
        {
            return false;
        }
        final int i = (int)(tail & mask);
        type[i] = WRITE;
        va[i] = address;
        payloadLength[i] = length;
        reports[i] = carried;
        payloads.putBytes(i * maxPayload, src, offset, length);
        tail++;
        return true;
    }

    boolean offerFetchAdd(final long address, final long addend, final int carried)
    {
        if (isFull())
        {
            return false;
        }
        final int i = (int)(tail & mask);
        type[i] = FETCH_ADD;
        va[i] = address;
        add[i] = addend;
        payloadLength[i] = 0;
        reports[i] = carried;
        tail++;
        return true;
    }

    int nextUnsentIndex()
    {
        return (int)(sendHead & mask);
    }

    byte type(final int index)
    {
        return type[index];
    }

    long va(final int index)
    {
        return va[index];
    }

    long add(final int index)
    {
        return add[index];
    }

    int payloadLength(final int index)
    {
        return payloadLength[index];
    }

    int payloadOffset(final int index)
    {
        return index * maxPayload;
    }

    DirectBuffer payloads()
    {
        return payloads;
    }

    void markSent(final int packetPsn)
    {
        psn[(int)(sendHead & mask)] = packetPsn;
        sendHead++;
    }

    /**
     * Pops every sent entry whose PSN is at or before {@code ackedPsn}.
     *
     * @param ackedPsn highest PSN acknowledged.
     * @return reports the popped entries carried (now delivered).
     */
    int acknowledge(final int ackedPsn)
    {
        int delivered = 0;
        while (ackHead < sendHead && Psn.compare(psn[(int)(ackHead & mask)], ackedPsn) <= 0)
        {
            delivered += reports[(int)(ackHead & mask)];
            ackHead++;
        }
        return delivered;
    }

    /**
     * @return the index of the oldest sent, unacknowledged entry (valid when {@link #hasUnacknowledged()}).
     */
    int oldestSentIndex()
    {
        return (int)(ackHead & mask);
    }

    /**
     * @param index an entry's index.
     * @return the PSN it was sent with (its last packet's, for a multi-packet WRITE).
     */
    int psn(final int index)
    {
        return psn[index];
    }

    /**
     * After a resynchronisation to {@code expectedPsn} (everything before it acknowledged): when the oldest
     * unacknowledged entry is a multi-packet WRITE whose first packet is before the expected PSN, the responder
     * executed part of it and keeps the message open (a new First or Only would be an Invalid Request, fatal).
     *
     * @param expectedPsn the responder's expected PSN.
     * @param pathMtu     the QP's path MTU (a WRITE is cut into packets of it).
     * @return the index of the packet the responder expects within that message, else 0.
     */
    int straddledSegment(final int expectedPsn, final int pathMtu)
    {
        if (!hasUnacknowledged())
        {
            return 0;
        }
        final int i = oldestSentIndex();
        if (WRITE != type[i])
        {
            return 0;
        }
        final int segments = segments(payloadLength[i], pathMtu);
        final int firstPsn = Psn.add(psn[i], 1 - segments);
        final int segment = Psn.distance(firstPsn, expectedPsn);
        return segments > 1 && segment > 0 && segment < segments ? segment : 0;
    }

    /**
     * @param length  a WRITE's payload length.
     * @param pathMtu the path MTU.
     * @return packets the WRITE takes.
     */
    static int segments(final int length, final int pathMtu)
    {
        return length <= pathMtu ? 1 : (length + pathMtu - 1) / pathMtu;
    }

    /**
     * After a resync into the middle of the oldest sent entry, a multi-packet WRITE whose rest the QP re-sends on
     * the same PSNs: that entry stays sent, every later sent entry goes back to the unsent region.
     *
     * @return entries that will be re-sent, the resumed one included.
     */
    int rewindAfterOldest()
    {
        final int resend = (int)(sendHead - ackHead);
        sendHead = ackHead + 1;
        return resend;
    }

    /**
     * After a resync to {@code expectedPsn}: sent entries before it count as executed, the rest go back to the
     * unsent region to be sent again. Callers call {@code acknowledge(expectedPsn - 1)} first to learn the reports
     * the executed entries delivered; the call here then pops nothing.
     *
     * @param expectedPsn the responder's expected PSN.
     * @return entries that will be re-sent.
     */
    int rewindTo(final int expectedPsn)
    {
        acknowledge(Psn.add(expectedPsn, -1));
        final int resend = (int)(sendHead - ackHead);
        sendHead = ackHead;
        return resend;
    }
}
