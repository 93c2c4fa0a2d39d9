package io.dta.appliance.replay;

import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.engine.worker.EngineGroup;
import io.dta.appliance.io.FrameSource;

import java.io.IOException;

/**
 * The one replay loop, whatever carries the frames (a capture read by {@code PcapReader}, or DPDK's
 * {@code net_pcap} ports): a reports capture and an optional responses capture merged by timestamp into one
 * engine (a response and a report with the same timestamp: the response first), the timers due between two frames
 * run at their own deadlines before the next frame ({@link TranslatorEngine#advanceTo(long)}), everything flushed
 * when the reports end before the responses, and the engine finished at the last frame's time.
 */
public final class CaptureMerge
{
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
    public static void run(final EngineGroup engine, final FrameSource reports, final FrameSource responses)
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
            final boolean takeBack = haveBack && (!haveIn || responses.timeNanos() <= reports.timeNanos());
            final FrameSource from = takeBack ? responses : reports;
            now = Math.max(now, from.timeNanos());
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
}
