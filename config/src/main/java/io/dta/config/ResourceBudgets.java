package io.dta.config;

import java.util.List;

/**
 * The memory the configuration makes the translator preallocate, held to its budgets: the QPs' essential rings
 * together, and the sketches' merge state together.
 */
final class ResourceBudgets
{
    private final ConfigProblems problems;

    ResourceBudgets(final ConfigProblems problems)
    {
        this.problems = problems;
    }

    /**
     * Every QP keeps an essential ring, preallocated: {@code essential.backlog} entries rounded up to a power of two,
     * each the size of the QP's largest WRITE. Sketch runs may be large now that they need not fit one packet, so the
     * rings together are held to {@link EssentialConfig#MAX_RING_BYTES}, refused here rather than failing to start.
     */
    void essentialRingBudget(final List<CollectorConfig> collectors, final int backlog)
    {
        if (backlog <= 0)
        {
            return;
        }
        final long entries = Long.highestOneBit(2L * backlog - 1);
        long total = 0;
        long largest = 0;
        String largestPath = null;
        for (int c = 0; c < collectors.size(); c++)
        {
            final CollectorConfig collector = collectors.get(c);
            total += (collector.regions().size() - collector.sketches().size()) * entries * EssentialConfig.ENTRY_BYTES;
            for (int k = 0; k < collector.sketches().size(); k++)
            {
                final SketchConfig sketch = collector.sketches().get(k);
                if (problems.has("collectors[" + c + "].sketches[" + k + "].batchColumns"))
                {
                    return; // that sketch's ring alone is already refused, with its own message
                }
                final long ring = entries * Math.max(EssentialConfig.ENTRY_BYTES, sketch.runBytes());
                total += ring;
                if (ring > largest)
                {
                    largest = ring;
                    largestPath = "collectors[" + c + "].sketches[" + k + "]";
                }
            }
        }
        if (total > EssentialConfig.MAX_RING_BYTES)
        {
            problems.add("essential.backlog", backlog + " (" + entries + " entries per QP) makes the QPs' essential " +
                "rings take " + total + " bytes together, more than " + EssentialConfig.MAX_RING_BYTES +
                (null == largestPath ? "" : "; the largest is " + largestPath + "'s, " + largest + " bytes (one " +
                "entry per run of batchColumns x rows x 4 bytes)") + ": lower essential.backlog" +
                (null == largestPath ? "" : " or the sketches' batchColumns"));
        }
    }

    /**
     * The translator preallocates every epoch area's merge state on its heap (every area may hold an open epoch),
     * so all sketches together are held to {@link SketchConfig#MAX_TRANSLATOR_STATE_BYTES}, refused here rather than
     * dying of an OutOfMemoryError at start. Reported at the largest sketch, with its numbers and the total.
     */
    void sketchStateBudget(final List<CollectorConfig> collectors)
    {
        long total = 0;
        long largest = -1;
        SketchConfig largestSketch = null;
        String largestPath = null;
        for (int c = 0; c < collectors.size(); c++)
        {
            final CollectorConfig collector = collectors.get(c);
            for (int k = 0; k < collector.sketches().size(); k++)
            {
                final String path = "collectors[" + c + "].sketches[" + k + "]";
                if (problems.has(path + ".type") || problems.has(path + ".rows") || problems.has(path + ".columns") ||
                    problems.has(path + ".epochs"))
                {
                    continue; // its size is unknown; its own message says why
                }
                final SketchConfig sketch = collector.sketches().get(k);
                final long bytes = sketch.translatorStateBytes();
                total += bytes;
                if (bytes > largest)
                {
                    largest = bytes;
                    largestSketch = sketch;
                    largestPath = path;
                }
            }
        }
        if (total > SketchConfig.MAX_TRANSLATOR_STATE_BYTES)
        {
            problems.add(largestPath, largestSketch.epochs() + " epochs x " + largestSketch.columns() + " columns x (" +
                largestSketch.rows() + " rows x " + SketchConfig.translatorCellBytes(largestSketch.type()) + " + " +
                SketchConfig.CELL_BYTES + ") bytes = " + largest + " bytes (" + mib(largest) + " MiB) of merge " +
                "state the translator preallocates on its heap (" + largestSketch.type().text() + " cells and " +
                "per-column contribution counts, for every epoch area)" + (total == largest ? "" : "; all sketches " +
                "together " + total + " bytes (" + mib(total) + " MiB)") + ", more than the " +
                SketchConfig.MAX_TRANSLATOR_STATE_BYTES + " bytes (" + mib(SketchConfig.MAX_TRANSLATOR_STATE_BYTES) +
                " MiB) the translator holds for sketches: lower epochs, rows or columns");
        }
    }

    private static long mib(final long bytes)
    {
        return (bytes + (1L << 20) - 1) >> 20;
    }
}
