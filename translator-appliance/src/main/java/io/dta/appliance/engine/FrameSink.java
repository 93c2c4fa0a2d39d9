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
}
