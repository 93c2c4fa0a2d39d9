package io.dta.appliance.cli;

import io.dta.appliance.gen.ProgressBar;
import io.dta.appliance.io.FrameSource;
import io.dta.codec.pcap.PcapReader;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Progress through a capture being read, as {@code dta gen} shows its own: on a terminal a bar redrawn in place on
 * standard error, else, for a large capture only, a plain line every few seconds. Measured in bytes of the file
 * (a capture's frame count is known only once it is read). A capture that is not a regular file (a pipe) has no
 * size, so it shows none.
 */
final class CaptureProgress implements FrameSource.FrameObserver
{
    /** Without a terminal, captures smaller than this show no progress lines. */
    static final long PLAIN_LINES_FROM_BYTES = 256L << 20;
    /** Frames between looks at the reader's position. */
    private static final int FRAMES_PER_LOOK = 1024;

    private final PcapReader reader;
    private final ProgressBar bar;
    private final long size;
    private long frames;

    private CaptureProgress(final PcapReader reader, final ProgressBar bar, final long size)
    {
        this.reader = reader;
        this.bar = bar;
        this.size = size;
    }

    /**
     * @param reader  the capture being read.
     * @param file    its file.
     * @param enabled false for {@code --no-progress} (or when the output itself goes to the terminal).
     * @return an observer of the reader's frames that draws the progress, or null when none is shown.
     */
    static CaptureProgress of(final PcapReader reader, final Path file, final boolean enabled)
    {
        if (!enabled)
        {
            return null;
        }
        final long size;
        try
        {
            size = Files.isRegularFile(file) ? Files.size(file) : 0;
        }
        catch (final IOException ex)
        {
            return null;
        }
        final boolean terminal = StderrTerminal.isTerminal();
        if (0 == size || !terminal && size < PLAIN_LINES_FROM_BYTES)
        {
            return null;
        }
        final PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), false);
        return new CaptureProgress(reader, new ProgressBar(err, size, terminal, "bytes"), size);
    }

    @Override
    public void onFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        frame();
    }

    /**
     * Counts one frame read; looks at the reader's position every {@value #FRAMES_PER_LOOK} frames.
     */
    void frame()
    {
        if (0 == (++frames & (FRAMES_PER_LOOK - 1)))
        {
            bar.updateNow(reader.recordOffset());
        }
    }

    /**
     * Draws the last state and ends the line.
     *
     * @param whole true when the capture was read to its end, false when reading stopped before.
     */
    void finish(final boolean whole)
    {
        bar.finish(whole ? size : reader.recordOffset());
    }
}
