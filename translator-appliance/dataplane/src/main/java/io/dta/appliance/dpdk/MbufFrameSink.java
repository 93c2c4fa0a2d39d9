package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.HeldFrame;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.UdpFlyweight;
import io.dta.dpdk.Mempool;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The data plane's one {@link FrameSink} (in {@code dta run}, {@code dta replay --io dpdk} and {@code dta bench --io
 * dpdk} alike): frames are written straight into mbufs (taken from a stash refilled with one bulk allocation) and
 * queued on the {@link TxQueue} of the port they belong on, which sends them in one tx burst when full or at the end
 * of the duty cycle. The engine's RoCEv2 frames (UDP to 4791) go out on the collector link; its other frames (NACKs
 * to reporters) go back out on the reports port (the same queue when there is one port). Frames that are already
 * built elsewhere (ARP replies, a responder's ACKs) are copied into an mbuf with
 * {@link #send(TxQueue, DirectBuffer, int, int)}. Zero allocation per frame.
 */
public final class MbufFrameSink implements FrameSink, AutoCloseable
{
    private final TxQueue roce;
    private final TxQueue other;
    private final MbufStash stash;
    private final EthernetFlyweight ethernet = new EthernetFlyweight();
    private FrameTimeLog timeLog;

    /**
     * @param pool  where frame mbufs come from.
     * @param roce  where RoCEv2 frames (UDP destination port 4791) go.
     * @param other where every other frame goes (may be the same queue).
     * @param burst mbufs per bulk allocation.
     */
    public MbufFrameSink(final Mempool pool, final TxQueue roce, final TxQueue other, final int burst)
    {
        this.roce = roce;
        this.other = other;
        this.stash = new MbufStash(pool, burst);
    }

    /**
     * @param pool  where frame mbufs come from.
     * @param queue where every frame goes.
     * @param burst mbufs per bulk allocation.
     */
    public MbufFrameSink(final Mempool pool, final TxQueue queue, final int burst)
    {
        this(pool, queue, queue, burst);
    }

    /**
     * Notes the engine clock of every frame from now on (replay: the output capture is re-stamped with them).
     *
     * @param log where the times go.
     */
    void logTimes(final FrameTimeLog log)
    {
        timeLog = log;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public MutableDirectBuffer buffer()
    {
        return stash.buffer();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int claim(final int maxLength)
    {
        return stash.claim(maxLength);
    }

    /**
     * Queues the engine's frame with what it is and carries, so that a frame the device does not take goes back to
     * the engine's counters ({@link #countEngineFramesIn}).
     */
    @Override
    public SendOutcome commit(
        final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
    {
        noteTime(timeNanos);
        final TxQueue queue = isRoce(length) ? roce : other;
        queue.add(stash.take(length), kind, reports);
        return SendOutcome.SENT;
    }

    /**
     * Lends the held frame an mbuf of its own: it is built there and never copied.
     */
    @Override
    public boolean claimHeld(final HeldFrame frame, final int maxLength)
    {
        return stash.lend(frame, maxLength);
    }

    /**
     * Sends a held frame: only queue pairs hold frames, so it goes to the collector link.
     */
    @Override
    public SendOutcome commitHeld(final HeldFrame frame, final int length, final long timeNanos, final int reports)
    {
        noteTime(timeNanos);
        roce.add(stash.takeLent(frame, length), OutFrameKind.REQUEST, reports);
        return SendOutcome.SENT;
    }

    private void noteTime(final long timeNanos)
    {
        if (null != timeLog)
        {
            timeLog.record(timeNanos);
        }
    }

    /**
     * Sends what its queues hold (call once per duty cycle when nobody else flushes them).
     *
     * @return frames the devices took.
     */
    public int flush()
    {
        return roce == other ? roce.flush() : roce.flush() + other.flush();
    }

    /**
     * Gives the engine's frames that a port's tx burst does not take back to the engine's counters
     * ({@link io.dta.appliance.engine.Delivery#notTaken}), so that they count as dropped (translation.md §1), not
     * delivered.
     *
     * @param counters the engine's counters.
     */
    public void countEngineFramesIn(final EngineCounters counters)
    {
        roce.countEngineFramesIn(counters);
        other.countEngineFramesIn(counters);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void abandonHeld(final HeldFrame frame)
    {
        stash.giveBack(frame);
    }

    /**
     * Copies a frame built elsewhere into an mbuf and queues it on {@code queue}.
     *
     * @param queue  the port to send it on.
     * @param frame  the frame's buffer.
     * @param offset frame start.
     * @param length frame length.
     * @return false when no mbuf was free (the frame is dropped; counted in {@link #claimFailures()}).
     */
    public boolean send(final TxQueue queue, final DirectBuffer frame, final int offset, final int length)
    {
        if (claim(length) < 0)
        {
            return false;
        }
        stash.buffer().putBytes(0, frame, offset, length);
        queue.add(stash.take(length));
        return true;
    }

    private boolean isRoce(final int length)
    {
        if (roce == other)
        {
            return true;
        }
        final MutableDirectBuffer buffer = stash.buffer();
        ethernet.wrap(buffer, 0);
        if (length < EthernetFlyweight.HEADER_LENGTH + 2 * EthernetFlyweight.VLAN_TAG_LENGTH + 28)
        {
            return false;
        }
        final int ip = ethernet.headerLength();
        if (EthernetFlyweight.ETHER_TYPE_IPV4 != ethernet.innerEtherType())
        {
            return false;
        }
        final int udp = ip + ((buffer.getByte(ip) & 0x0F) << 2);
        return udp + UdpFlyweight.HEADER_LENGTH <= length && UdpFlyweight.ROCEV2_PORT ==
            (buffer.getShort(udp + UdpFlyweight.DST_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF);
    }

    /**
     * @return claims refused because the pool was empty (frames dropped).
     */
    public long claimFailures()
    {
        return stash.claimFailures();
    }

    /**
     * Sends what its queues hold and returns the unused stash (and a claimed, uncommitted mbuf) to the pool.
     */
    @Override
    public void close()
    {
        flush();
        stash.close();
    }
}
