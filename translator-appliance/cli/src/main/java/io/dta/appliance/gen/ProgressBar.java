package io.dta.appliance.gen;

import java.io.PrintWriter;

/**
 * A text progress bar for long runs (generating reports, reading a capture). On a terminal it redraws one line in place with a carriage return
 * at most {@value #TERMINAL_UPDATES_PER_SECOND} times a second; elsewhere (a log file) it prints a plain line at
 * most every {@value #LOG_INTERVAL_SECONDS} seconds, and a last line when done. Callers may call
 * {@link #update(long)} on every item: it reads the clock only every {@value #CLOCK_CHECK_INTERVAL} items and
 * allocates only when it draws.
 */
public final class ProgressBar
{
    /** Redraws per second on a terminal, at most. */
    public static final int TERMINAL_UPDATES_PER_SECOND = 4;
    /** Seconds between lines when not on a terminal. */
    public static final int LOG_INTERVAL_SECONDS = 2;
    /** Items between clock reads. */
    public static final int CLOCK_CHECK_INTERVAL = 4096;

    private static final int WIDTH = 30;

    private final PrintWriter out;
    private final long total;
    private final String unit;
    private final boolean terminal;
    private final long intervalNanos;
    private final long startNanos;
    private long nextDrawNanos;

    /**
     * @param out      where to draw (standard error).
     * @param total    items expected.
     * @param terminal true to redraw in place, false for plain lines.
     */
    public ProgressBar(final PrintWriter out, final long total, final boolean terminal)
    {
        this(out, total, terminal, "reports");
    }

    /**
     * @param out      where to draw (standard error).
     * @param total    items expected.
     * @param terminal true to redraw in place, false for plain lines.
     * @param unit     what the items are, as the line names them ("reports", "bytes").
     */
    public ProgressBar(final PrintWriter out, final long total, final boolean terminal, final String unit)
    {
        this.out = out;
        this.total = total;
        this.unit = unit;
        this.terminal = terminal;
        this.intervalNanos = terminal ?
            1_000_000_000L / TERMINAL_UPDATES_PER_SECOND : LOG_INTERVAL_SECONDS * 1_000_000_000L;
        this.startNanos = System.nanoTime();
        this.nextDrawNanos = startNanos + intervalNanos;
    }

    /**
     * Report progress; draws only when due.
     *
     * @param done items done so far.
     */
    public void update(final long done)
    {
        if ((done & (CLOCK_CHECK_INTERVAL - 1)) != 0)
        {
            return;
        }
        updateNow(done);
    }

    /**
     * Report progress, reading the clock at once (for callers that count in units other than their items, such as
     * bytes read, and call it every few items themselves); draws only when due.
     *
     * @param done units done so far.
     */
    public void updateNow(final long done)
    {
        final long now = System.nanoTime();
        if (now - nextDrawNanos >= 0)
        {
            nextDrawNanos = now + intervalNanos;
            draw(done, now);
        }
    }

    /**
     * Draw the final state (always, so a log shows the run's rate) and end the line.
     *
     * @param done items done.
     */
    public void finish(final long done)
    {
        draw(done, System.nanoTime());
        if (terminal)
        {
            out.println();
        }
        out.flush();
    }

    /**
     * Render one progress line (no carriage return, no newline).
     *
     * @param done         items done.
     * @param total        items expected.
     * @param elapsedNanos time since the start.
     * @return the line.
     */
    public static String render(final long done, final long total, final long elapsedNanos)
    {
        return render(done, total, elapsedNanos, "reports");
    }

    /**
     * Render one progress line (no carriage return, no newline).
     *
     * @param done         units done.
     * @param total        units expected.
     * @param elapsedNanos time since the start.
     * @param unit         what the units are.
     * @return the line.
     */
    public static String render(final long done, final long total, final long elapsedNanos, final String unit)
    {
        final double fraction = total <= 0 ? 1.0 : Math.min(1.0, done / (double)total);
        final int filled = (int)(fraction * WIDTH);
        final StringBuilder line = new StringBuilder(96).append('[');
        for (int i = 0; i < WIDTH; i++)
        {
            line.append(i < filled ? '#' : '.');
        }
        final double seconds = elapsedNanos / 1e9;
        final double rate = seconds > 0 ? done / seconds : 0.0;
        line.append("] ").append(String.format("%5.1f%% %,d/%,d %s %s/s", fraction * 100.0, done, total, unit,
            humanRate(rate)));
        if (rate > 0 && done < total)
        {
            line.append(" ETA ").append(Math.round((total - done) / rate)).append('s');
        }
        return line.toString();
    }

    private void draw(final long done, final long now)
    {
        final String line = render(done, total, now - startNanos, unit);
        if (terminal)
        {
            out.print('\r');
            out.print(line);
            out.print("\u001b[K");
        }
        else
        {
            out.println(line);
        }
        out.flush();
    }

    private static String humanRate(final double rate)
    {
        if (rate >= 1e6)
        {
            return String.format("%.2fM", rate / 1e6);
        }
        if (rate >= 1e3)
        {
            return String.format("%.1fk", rate / 1e3);
        }
        return String.format("%.0f", rate);
    }
}
