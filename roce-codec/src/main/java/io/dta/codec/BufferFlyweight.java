package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What every header flyweight holds: the buffer it reads and, when that buffer is mutable, the same buffer typed
 * for the setters.
 * <p>
 * {@link #wrapBuffer(DirectBuffer)} writes the two references only when the buffer changes. Flyweights are
 * re-wrapped for every packet, almost always over the same buffer, and live as long as the data plane: under G1 a
 * reference store into such an old object can cost a StoreLoad fence in the write barrier, which at one or two
 * stores per flyweight per packet measured as the difference between 7.4 and 4.1 M reports/s
 * (docs/performance.md).
 */
public abstract class BufferFlyweight
{
    /** The wrapped buffer. */
    protected DirectBuffer buffer;
    /** The wrapped buffer when it is mutable, else null. */
    protected MutableDirectBuffer mutableBuffer;

    /**
     * Points the flyweight at {@code buffer}.
     *
     * @param buffer the buffer to read (and write, if mutable).
     */
    protected final void wrapBuffer(final DirectBuffer buffer)
    {
        if (this.buffer != buffer)
        {
            this.buffer = buffer;
            this.mutableBuffer = buffer instanceof MutableDirectBuffer ? (MutableDirectBuffer)buffer : null;
        }
    }
}
