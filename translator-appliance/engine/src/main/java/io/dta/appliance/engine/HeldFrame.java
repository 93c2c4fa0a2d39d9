package io.dta.appliance.engine;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Where a {@link QueuePairSender} builds the frame it holds back until the next one (or until the QP goes idle):
 * in memory a {@link FrameSink} lent it ({@link FrameSink#claimHeld}, for example a DPDK mbuf, so the frame is
 * never copied), or in the sender's own staging buffer, copied into the sink when it leaves.
 * <p>
 * Only the sender and its sink touch it, on the engine thread.
 */
public final class HeldFrame
{
    /**
     * Frames are staged 2 bytes in (Linux's NET_IP_ALIGN) so that the IPv4 header, and with it the ICRC's CRC
     * pass, is 8-byte aligned.
     */
    static final int STAGING_OFFSET = 2;

    private final UnsafeBuffer staging;
    private final UnsafeBuffer lent = new UnsafeBuffer(0, 0);
    private MutableDirectBuffer buffer;
    private int offset;
    private long handle;

    /**
     * @param capacity the largest frame the sender builds.
     */
    public HeldFrame(final int capacity)
    {
        staging = new UnsafeBuffer(ByteBuffer.allocateDirect(STAGING_OFFSET + capacity));
        useStaging();
    }

    /**
     * Points the frame at memory the sink lends; called by {@link FrameSink#claimHeld}.
     *
     * @param handle   the sink's name for that memory (for example the mbuf's address).
     * @param address  where the frame starts.
     * @param capacity bytes available.
     */
    public void lend(final long handle, final long address, final int capacity)
    {
        lent.wrap(address, capacity);
        this.handle = handle;
        if (buffer != lent)
        {
            // Reference stores only on a change: see FrameDecoder#reset on G1's write barrier.
            buffer = lent;
        }
        offset = 0;
    }

    /**
     * Points the frame at the sender's own staging buffer. A sink that has no memory of its own to lend but needs
     * no copy either (one that only inspects frames and discards them) may call it from {@link FrameSink#claimHeld}
     * and return true.
     */
    public void useStaging()
    {
        if (buffer != staging)
        {
            buffer = staging;
        }
        offset = STAGING_OFFSET;
        handle = 0;
    }

    /**
     * @return the buffer the frame is built in.
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return where the frame starts in {@link #buffer()}.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return the handle given to {@link #lend}, 0 when staged.
     */
    public long handle()
    {
        return handle;
    }
}
