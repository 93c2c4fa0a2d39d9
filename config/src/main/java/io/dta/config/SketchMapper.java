package io.dta.config;

import static io.dta.config.ConfigLimits.MAX_MICROS;

/**
 * Maps one sketch of a collector: its type and shape, batching, epochs and their timing, and the length its epochs
 * need. Keys are read in the schema's order, which is the order of the messages and of the known keys listed for an
 * unknown one.
 */
final class SketchMapper
{
    private final ConfigProblems problems;
    private final RegionMapper regionMapper;

    SketchMapper(final ConfigProblems problems, final RegionMapper regions)
    {
        this.problems = problems;
        this.regionMapper = regions;
    }

    SketchConfig sketch(final ConfigSection s, final int backlog)
    {
        final long id = s.requiredInteger("id", 0, SketchConfig.MAX_ID, "");
        final SketchType type = s.sketchType("type");
        final int rows = rows(s, type);
        final int columns = (int)s.requiredInteger("columns", 1, SketchConfig.MAX_COLUMNS, "");
        if (!problems.has(s.pathOf("columns")) && Integer.bitCount(columns) != 1)
        {
            problems.add(s.pathOf("columns"), columns + " is not a power of two");
        }
        final boolean columnsOk = !problems.has(s.pathOf("columns"));
        final int switches = (int)s.integer("switches", 1, SketchConfig.MAX_SWITCHES, SketchConfig.DEFAULT_SWITCHES);
        final int batchColumns = batchColumns(s, rows, columns, columnsOk, backlog);
        final int epochs = (int)s.integer("epochs", 1, SketchConfig.MAX_EPOCHS, SketchConfig.DEFAULT_EPOCHS);
        final long epochTimeout = epochTimeout(s);
        final long nackRetry = nackRetry(s, epochTimeout);
        final int nackRetries = (int)s.integer(
            "nackRetries", 0, SketchConfig.MAX_NACK_RETRIES, SketchConfig.DEFAULT_NACK_RETRIES);
        final RegionConfig region = regionMapper.region(s);
        s.finish();

        checkLength(s, region, rows, columnsOk ? columns : -1, epochs);
        return new SketchConfig(
            id, type, rows, columns, switches, batchColumns, epochs, epochTimeout, nackRetry, nackRetries, region);
    }

    private int rows(final ConfigSection s, final SketchType type)
    {
        if (type != SketchType.HYPERLOGLOG)
        {
            return (int)s.requiredInteger("rows", 1, SketchConfig.MAX_ROWS, "");
        }
        final int rows = (int)s.integer("rows", 1, SketchConfig.MAX_ROWS, 1);
        if (!problems.has(s.pathOf("rows")) && rows != 1)
        {
            problems.add(s.pathOf("rows"), rows + " rows; a hyperloglog sketch has exactly 1 row of registers");
        }
        return rows;
    }

    private int batchColumns(
        final ConfigSection s, final int rows, final int columns, final boolean columnsOk, final int backlog)
    {
        final int defaultBatch = columnsOk ? Math.min(SketchConfig.DEFAULT_BATCH_COLUMNS, Integer.highestOneBit(
            Math.max(columns, 1))) : SketchConfig.DEFAULT_BATCH_COLUMNS;
        final int batchColumns = (int)s.integer("batchColumns", 1, SketchConfig.MAX_COLUMNS, defaultBatch);
        if (problems.has(s.pathOf("batchColumns")))
        {
            return batchColumns;
        }
        if (Integer.bitCount(batchColumns) != 1)
        {
            problems.add(s.pathOf("batchColumns"), batchColumns + " is not a power of two");
        }
        else if (columnsOk && batchColumns > columns)
        {
            problems.add(s.pathOf("batchColumns"), batchColumns + " is more than columns " + columns);
        }
        else if (backlog > 0 && !problems.has(s.pathOf("rows")))
        {
            // A run longer than the path MTU is fine (one WRITE First/Middle/Last), but the sketch QP's essential
            // ring keeps every WRITE it has not seen acknowledged in entries sized for the run, preallocated as
            // one buffer of essential.backlog entries rounded up to a power of two: that must be addressable.
            final long run = (long)batchColumns * rows * SketchConfig.CELL_BYTES;
            final long entries = Long.highestOneBit(2L * backlog - 1);
            if (run * entries > Integer.MAX_VALUE)
            {
                problems.add(s.pathOf("batchColumns"), batchColumns + " columns x " + rows + " rows x " +
                    SketchConfig.CELL_BYTES + " = " + run + " bytes per WRITE x " + entries +
                    " essential ring entries (essential.backlog " + backlog + ", rounded up to a power of two) = " +
                    run * entries + " bytes, more than " + Integer.MAX_VALUE);
            }
        }
        return batchColumns;
    }

    private long epochTimeout(final ConfigSection s)
    {
        final long epochTimeout = s.integer(
            "epochTimeoutMicros", 1, MAX_MICROS, SketchConfig.DEFAULT_EPOCH_TIMEOUT_MICROS);
        if (!problems.has(s.pathOf("epochTimeoutMicros")) && epochTimeout < SketchConfig.MIN_EPOCH_TIMEOUT_MICROS)
        {
            // nackRetryMicros must be at least 1 and below the timeout, its default included: 1 leaves no value.
            problems.add(s.pathOf("epochTimeoutMicros"), epochTimeout + " leaves no valid nackRetryMicros (at least " +
                "1 and below epochTimeoutMicros); the least epoch timeout is " + SketchConfig.MIN_EPOCH_TIMEOUT_MICROS);
        }
        return epochTimeout;
    }

    private long nackRetry(final ConfigSection s, final long epochTimeout)
    {
        final boolean timeoutOk = !problems.has(s.pathOf("epochTimeoutMicros"));
        final long nackRetry = s.integer("nackRetryMicros", 1, MAX_MICROS,
            SketchConfig.defaultNackRetryMicros(timeoutOk ? epochTimeout : SketchConfig.DEFAULT_EPOCH_TIMEOUT_MICROS));
        if (timeoutOk && s.present("nackRetryMicros") && !problems.has(s.pathOf("nackRetryMicros")) &&
            nackRetry >= epochTimeout)
        {
            // The first retry would come after the epoch closed: a setting that silently does nothing. The default
            // is always below (it is only not for a 1 us timeout, where retries cannot help anyway).
            problems.add(s.pathOf("nackRetryMicros"), nackRetry + " is not below epochTimeoutMicros " +
                epochTimeout + "; a retry that late would find the epoch closed");
        }
        return nackRetry;
    }

    /**
     * The region holds whole cells and, when its shape is valid ({@code columns} -1 when not), every epoch.
     */
    private void checkLength(
        final ConfigSection s, final RegionConfig region, final int rows, final int columns, final int epochs)
    {
        final String lengthPath = s.pathOf("length");
        if (problems.has(lengthPath))
        {
            return;
        }
        final long length = region.length();
        if (length % SketchConfig.CELL_BYTES != 0)
        {
            problems.add(lengthPath, length + " is not a multiple of the cell size 4");
        }
        else if (!problems.has(s.pathOf("rows")) && columns >= 0 && !problems.has(s.pathOf("epochs")))
        {
            final long needed = epochs * SketchConfig.epochBytes(rows, columns);
            if (length < needed)
            {
                problems.add(lengthPath, length + " is too small for " + epochs + " epochs x (" +
                    SketchConfig.EPOCH_HEADER_BYTES + " + " + rows + " rows x " + columns + " columns x " +
                    SketchConfig.CELL_BYTES + ") = " + needed + " bytes");
            }
        }
    }
}
