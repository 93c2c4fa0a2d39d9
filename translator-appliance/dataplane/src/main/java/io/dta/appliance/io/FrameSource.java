package io.dta.appliance.io;

import io.dta.codec.pcap.PcapReader;
import org.agrona.DirectBuffer;

import java.io.IOException;

/**
 * Frames in order, each with its time: a capture, a generator, a list in a test. Read by the replays (with
 * {@code io.dta.appliance.replay.CaptureMerge}) and by the closed-loop demo.
 */
public interface FrameSource
{
    /**
     * Moves to the next frame.
     *
     * @return false when there is none.
     * @throws IOException if the source cannot be read.
     */
    boolean next() throws IOException;

    /**
     * @return the buffer holding the current frame.
     */
    DirectBuffer buffer();

    /**
     * @return where the current frame starts in {@link #buffer()}.
     */
    int offset();

    /**
     * @return the current frame's length.
     */
    int length();

    /**
     * @return the current frame's time (a capture's timestamp).
     */
    long timeNanos();

    /**
     * @param reader a capture opened for reading.
     * @return its frames, with their capture timestamps.
     */
    static FrameSource of(final PcapReader reader)
    {
        return of(reader, (buffer, offset, length) -> {});
    }

    /**
     * @param reader   a capture opened for reading.
     * @param observer shown each frame as the source moves to it (the demo takes its sample queries from them).
     * @return its frames, with their capture timestamps.
     */
    static FrameSource of(final PcapReader reader, final FrameObserver observer)
    {
        return new FrameSource()
        {
            @Override
            public boolean next() throws IOException
            {
                if (!reader.next())
                {
                    return false;
                }
                observer.onFrame(reader.buffer(), reader.offset(), reader.capturedLength());
                return true;
            }

            @Override
            public DirectBuffer buffer()
            {
                return reader.buffer();
            }

            @Override
            public int offset()
            {
                return reader.offset();
            }

            @Override
            public int length()
            {
                return reader.capturedLength();
            }

            @Override
            public long timeNanos()
            {
                return reader.timestampNanos();
            }
        };
    }

    /**
     * Sees each frame a source moves to.
     */
    @FunctionalInterface
    interface FrameObserver
    {
        /**
         * @param buffer the buffer holding the frame.
         * @param offset where it starts.
         * @param length its length.
         */
        void onFrame(DirectBuffer buffer, int offset, int length);
    }
}
