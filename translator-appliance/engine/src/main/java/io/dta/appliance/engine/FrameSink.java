package io.dta.appliance.engine;

import org.agrona.MutableDirectBuffer;

/**
 * Where the engine puts the frames it builds: a pcap file, an in-memory lossy link, or DPDK mbufs. The engine
 * claims space, writes the frame in place, then commits it, saying what the frame is ({@link OutFrameKind}) and how
 * many reports it carries; the sink answers what it did with it ({@link SendOutcome}), and {@link Delivery} counts
 * that.
 * Nothing is copied on the way out except by the sink itself when its medium requires it.
 * <p>
 * A queue pair's newest frame is held back until the next one comes: {@link #claimHeld} lets a sink lend it memory
 * of its own (an mbuf), so that it is built where it leaves and never copied.
 */
public interface FrameSink
{
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
     * @param kind      what the frame is.
     * @param reports   reports the frame carries, delivered when it leaves (a queue pair's non-essential operation;
     *                  0 for an essential one, whose ring entry carries them, and for every other kind). A sink that
     *                  learns only later that the frame did not leave gives both back with {@link Delivery#notTaken}.
     * @return what became of the frame.
     */
    SendOutcome commit(int offset, int length, long timeNanos, OutFrameKind kind, int reports);

    /**
     * Claims room for a frame that stays uncommitted while other frames are claimed and committed: a QP's newest
     * frame ({@link OutFrameKind#REQUEST}), held back until the next one comes (or the QP goes idle). A sink that can
     * lend such memory points {@code frame} at it with {@link HeldFrame#lend}; one that only inspects and discards
     * frames may let the sender build in its own staging with {@link HeldFrame#useStaging}. Either returns true, and
     * the frame then leaves through {@link #commitHeld} or {@link #abandonHeld}. The default returns false: the
     * sender builds in its staging buffer and later copies the frame in through {@link #claim}.
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
     * Sends a frame claimed with {@link #claimHeld}: a {@link OutFrameKind#REQUEST}.
     *
     * @param frame     the held frame.
     * @param length    the frame's final length.
     * @param timeNanos the engine clock when the frame left.
     * @param reports   reports the frame carries (see {@link #commit}).
     * @return what became of the frame.
     */
    default SendOutcome commitHeld(final HeldFrame frame, final int length, final long timeNanos, final int reports)
    {
        throw new UnsupportedOperationException("this sink takes no held claims");
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
