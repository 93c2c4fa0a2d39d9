package io.dta.appliance.replay;

import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.pcap.PcapReader;
import org.agrona.DirectBuffer;

import java.io.IOException;

/**
 * The one replay loop, whatever carries the frames (a {@link PcapReader}, or DPDK's {@code net_pcap} ports): a
 * reports capture and an optional responses capture merged by timestamp into one engine (a response and a report
 * with the same timestamp: the response first), the timers due between two frames run at their own deadlines
 * before the next frame ({@link TranslatorEngine#advanceTo(long)}), everything flushed when the reports end before
 * the responses, and the engine finished at the last frame's time.
 */
public final class CaptureMerge
{
    /**
     * One capture, read frame by frame in capture order.
     */
    public interface Input
    {
        /**
         * Moves to the next frame.
         *
         * @return false at the end of the capture.
         * @throws IOException if the capture cannot be read.
         */
        boolean next() throws IOException;

        /**
         * @return the current frame's capture time.
         */
        long timestampNanos();

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
    }

    private CaptureMerge()
    {
    }

    /**
     * Feeds both captures to the engine and finishes it.
     *
     * @param engine    the engine, fresh.
     * @param reports   the reports capture.
     * @param responses the responses capture, or null for an open-loop replay.
     * @throws IOException if a capture cannot be read.
     */
    public static void run(final TranslatorEngine engine, final Input reports, final Input responses)
        throws IOException
    {
        boolean haveIn = reports.next();
        boolean haveBack = null != responses && responses.next();
        if (null != responses && !haveBack)
        {
            engine.responsesEnded();
        }
        long now = Long.MIN_VALUE;
        while (haveIn || haveBack)
        {
            final boolean takeBack = haveBack && (!haveIn || responses.timestampNanos() <= reports.timestampNanos());
            final Input from = takeBack ? responses : reports;
            now = Math.max(now, from.timestampNanos());
            engine.advanceTo(now);
            if (takeBack)
            {
                engine.onResponsesCaptureFrame(from.buffer(), from.offset(), from.length(), now);
                haveBack = responses.next();
                if (!haveBack)
                {
                    engine.responsesEnded();
                }
            }
            else
            {
                engine.onReportsCaptureFrame(from.buffer(), from.offset(), from.length(), now);
                haveIn = reports.next();
                if (!haveIn && haveBack)
                {
                    // No report will come: flush now, as an open-loop replay does at its end, so that the
                    // collector's answers still ahead (to that open-loop output) find the frames they answer sent.
                    engine.flush(now);
                }
            }
        }
        engine.finish(Long.MIN_VALUE == now ? 0 : now);
    }

    /**
     * @param reader a capture opened for reading.
     * @return the reader as an input.
     */
    public static Input of(final PcapReader reader)
    {
        return new Input()
        {
            @Override
            public boolean next() throws IOException
            {
                return reader.next();
            }

            @Override
            public long timestampNanos()
            {
                return reader.timestampNanos();
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
        };
    }
}
