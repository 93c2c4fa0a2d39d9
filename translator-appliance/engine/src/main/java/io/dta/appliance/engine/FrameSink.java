package io.dta.appliance.engine;

import org.agrona.MutableDirectBuffer;

/**
 * Where the engine puts the frames it builds: a pcap file, an in-memory lossy link, or DPDK mbufs. The engine
 * claims space, writes the frame in place, then commits it; nothing is copied on the way out except by the
 * sink itself when its medium requires it.
 */
public interface FrameSink
{
    /**
     * {@code carried} value of a reporter NACK (a NACK frame carries no reports and is not a RoCEv2 frame).
     */
    int REPORTER_NACK = -1;

    /**
     * {@code carried} value of a sketch NACK (no reports, not a RoCEv2 frame).
     */
    int SKETCH_NACK = -2;

    /**
     * The buffer that {@link #claim(int)} offsets refer to.
     *
     * @return the current output buffer.
     */
    MutableDirectBuffer buffer();

    /**
     * Reserves room for one frame.
     *
     * @param maxLength the most bytes the frame may take.
     * @return offset into {@link #buffer()} to write at, or -1 when the sink cannot take a frame now.
     */
    int claim(int maxLength);

    /**
     * Sends the claimed frame.
     *
     * @param offset    the offset returned by {@link #claim(int)}.
     * @param length    the frame's final length.
     * @param timeNanos the engine clock when the frame left.
     */
    void commit(int offset, int length, long timeNanos);

    /**
     * Sends the claimed frame, telling the sink what the engine counted for it: a sink that learns only later
     * whether the frame really left (a DPDK tx burst) gives the frame back to the engine's counters with
     * {@link EngineCounters#frameNotTaken(int)} when it did not. The default forgets {@code carried}.
     *
     * @param offset    the offset returned by {@link #claim(int)}.
     * @param length    the frame's final length.
     * @param timeNanos the engine clock when the frame left.
     * @param carried   reports the frame carries and counted delivered (a queue pair's frame, 0 for a probe or an
     *                  essential operation), {@link #REPORTER_NACK} or
     *                  {@link #SKETCH_NACK}.
     */
    default void commit(final int offset, final int length, final long timeNanos, final int carried)
    {
        commit(offset, length, timeNanos);
    }

    /**
     * Claims room for a frame that stays uncommitted while other frames are claimed and committed: a QP's newest
     * frame, held back until the next one comes (or the QP goes idle). A sink that can lend such memory points
     * {@code frame} at it with {@link HeldFrame#lend}; one that only inspects and discards frames may let the
     * sender build in its own staging with {@link HeldFrame#useStaging}. Either returns true, and the frame then
     * leaves through {@link #commitHeld} or {@link #abandonHeld}. The default returns false: the sender builds in
     * its staging buffer and later copies the frame in through {@link #claim}.
     *
     * @param frame     the sender's held frame.
     * @param maxLength the most bytes the frame may take.
     * @return true when the claim was taken.
     */
    default boolean claimHeld(final HeldFrame frame, final int maxLength)
    {
        return false;
    }

    /**
     * Sends a frame claimed with {@link #claimHeld}.
     *
     * @param frame     the held frame.
     * @param length    the frame's final length.
     * @param timeNanos the engine clock when the frame left.
     */
    default void commitHeld(final HeldFrame frame, final int length, final long timeNanos)
    {
        throw new UnsupportedOperationException("this sink takes no held claims");
    }

    /**
     * Sends a frame claimed with {@link #claimHeld}, telling the sink what the engine counted for it (see
     * {@link #commit(int, int, long, int)}). The default forgets {@code carried}.
     *
     * @param frame     the held frame.
     * @param length    the frame's final length.
     * @param timeNanos the engine clock when the frame left.
     * @param carried   reports the frame carries and counted delivered (0 for an essential operation).
     */
    default void commitHeld(final HeldFrame frame, final int length, final long timeNanos, final int carried)
    {
        commitHeld(frame, length, timeNanos);
    }

    /**
     * Gives back a frame claimed with {@link #claimHeld} that will never be sent (the QP resynchronised or failed).
     *
     * @param frame the held frame.
     */
    default void abandonHeld(final HeldFrame frame)
    {
    }
}
