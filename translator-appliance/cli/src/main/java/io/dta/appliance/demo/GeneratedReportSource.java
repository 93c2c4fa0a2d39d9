package io.dta.appliance.demo;

import io.dta.appliance.gen.ReportGenerator;
import io.dta.appliance.io.FrameSource;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * A closed-loop demo's input drawn from a {@link ReportGenerator}: {@code count} reports, each written into one
 * reused frame buffer, timed by the generator's clock.
 */
public final class GeneratedReportSource implements FrameSource
{
    /**
     * Sees each report right after it was generated (the demo notes sample keys to query with it).
     */
    @FunctionalInterface
    public interface Observer
    {
        /**
         * @param generator the generator, describing the report it just wrote.
         */
        void onReport(ReportGenerator generator);
    }

    private final ReportGenerator generator;
    private final long count;
    private final Observer observer;
    private final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(ReportGenerator.MAX_FRAME_LENGTH));
    private long produced;
    private int length;

    /**
     * @param generator where the reports come from.
     * @param count     how many reports to produce.
     */
    public GeneratedReportSource(final ReportGenerator generator, final long count)
    {
        this(generator, count, generated -> {});
    }

    /**
     * @param generator where the reports come from.
     * @param count     how many reports to produce.
     * @param observer  told of each report.
     */
    public GeneratedReportSource(final ReportGenerator generator, final long count, final Observer observer)
    {
        this.generator = generator;
        this.count = count;
        this.observer = observer;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public boolean next()
    {
        if (produced == count)
        {
            return false;
        }
        length = generator.next(frame, 0);
        produced++;
        observer.onReport(generator);
        return true;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public DirectBuffer buffer()
    {
        return frame;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int offset()
    {
        return 0;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int length()
    {
        return length;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public long timeNanos()
    {
        return generator.timestampNanos();
    }
}
