package io.dta.appliance.cli;

import io.dta.appliance.gen.ProgressBar;
import io.dta.appliance.io.FrameSource;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * A source of a known number of reports that shows how far it has got, as {@code dta gen} does: on a terminal a
 * bar redrawn in place on standard error, else, for a million reports or more, a plain line every few seconds.
 */
final class SourceProgress implements FrameSource
{
    /** Without a terminal, runs shorter than this show no progress lines. */
    static final long PLAIN_LINES_FROM_REPORTS = 1_000_000;

    private final FrameSource source;
    private final ProgressBar bar;
    private long frames;

    private SourceProgress(final FrameSource source, final ProgressBar bar)
    {
        this.source = source;
        this.bar = bar;
    }

    /**
     * @param source  the reports.
     * @param total   how many it holds.
     * @param enabled false for {@code --no-progress}.
     * @return the source, showing its progress when that is wanted.
     */
    static FrameSource of(final FrameSource source, final long total, final boolean enabled)
    {
        final boolean terminal = StderrTerminal.isTerminal();
        if (!enabled || !terminal && total < PLAIN_LINES_FROM_REPORTS)
        {
            return source;
        }
        final PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), false);
        return new SourceProgress(source, new ProgressBar(err, total, terminal));
    }

    /**
     * Draws the last state of a source {@link #of} wrapped, and ends its line; nothing for any other source.
     *
     * @param source what {@link #of} returned.
     */
    static void finish(final FrameSource source)
    {
        if (source instanceof SourceProgress progress)
        {
            progress.bar.finish(progress.frames);
        }
    }

    @Override
    public boolean next() throws IOException
    {
        if (!source.next())
        {
            return false;
        }
        bar.update(++frames);
        return true;
    }

    @Override
    public DirectBuffer buffer()
    {
        return source.buffer();
    }

    @Override
    public int offset()
    {
        return source.offset();
    }

    @Override
    public int length()
    {
        return source.length();
    }

    @Override
    public long timeNanos()
    {
        return source.timeNanos();
    }
}
