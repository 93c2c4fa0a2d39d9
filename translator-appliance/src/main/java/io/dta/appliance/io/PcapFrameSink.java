package io.dta.appliance.io;

import io.dta.appliance.engine.FrameSink;
import io.dta.codec.pcap.PcapWriter;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * A {@link FrameSink} that writes every frame to a pcap file, timestamped with the engine clock.
 */
public final class PcapFrameSink implements FrameSink, AutoCloseable
{
    private static final int MAX_FRAME = 16 * 1024;

    private final PcapWriter writer;
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_FRAME));
    private long frames;

    /**
     * @param writer the pcap writer to fill; closed with this sink.
     */
    public PcapFrameSink(final PcapWriter writer)
    {
        this.writer = writer;
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
        return maxLength <= MAX_FRAME ? 0 : -1;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void commit(final int offset, final int length, final long timeNanos)
    {
        try
        {
            writer.write(timeNanos, buffer, offset, length);
            frames++;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the output capture", ex);
        }
    }

    /**
     * @return frames written.
     */
    public long frames()
    {
        return frames;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void close() throws IOException
    {
        writer.close();
    }
}
