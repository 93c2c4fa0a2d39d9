package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dta.collector.query.HyperLogLogEstimate;
import io.dta.collector.query.SketchEpoch;
import io.dta.collector.query.SketchEpochState;
import io.dta.collector.query.SketchQuery;
import io.dta.collector.query.StoreQueries;
import io.dta.config.SketchConfig;
import io.dta.config.SketchType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code dta query sketch}: one epoch of a Sketch-Merge sketch, read consistently (header, cells, header again),
 * with its state and contributors, the merged matrix, and point estimates (Count-Min minimum, Count sketch
 * median) or the HyperLogLog cardinality. See docs/sketch.md.
 */
@Command(name = "sketch", mixinStandardHelpOptions = true,
    header = "Read one epoch of a merged sketch: its state, cells and estimates.",
    description = {
        "Read one epoch of a merged sketch: state (complete, incomplete, open, absent, torn, invalid), contributing",
        "switches and the rows x columns matrix; with --key the point estimate (Count-Min: minimum over rows;",
        "Count sketch: median of the sign-corrected counters); HyperLogLog: the cardinality." })
final class SketchQueryCommand implements Callable<Integer>
{
    /** Columns the text output shows. */
    static final int TEXT_COLUMNS = 16;

    @ParentCommand
    private QueryCommand parent;

    @Option(names = "--id", required = true, paramLabel = "S", description = "sketch id")
    private String id;

    @Option(names = "--epoch", required = true, paramLabel = "E", description = "epoch (u32)")
    private String epoch;

    @Option(names = "--key", paramLabel = "K", description = "key to estimate, decimal or 0x-hex (repeatable)")
    private List<String> key;

    @Option(names = "--json", description = "one JSON object with the whole matrix")
    private boolean json;

    @Override
    public Integer call()
    {
        final long sketchId = QueryCommand.parseU32(id);
        final long e = QueryCommand.parseU32(epoch);
        if (sketchId < 0 || sketchId > SketchConfig.MAX_ID || e < 0)
        {
            System.err.println("dta query sketch: --id must be 0..65535 and --epoch a 32-bit number");
            return QueryCommand.BAD_ARGUMENTS;
        }
        final long[] parsed = null == key || key.isEmpty() ? new long[0] : QueryKeys.keys("sketch", key, null);
        if (null == parsed)
        {
            return QueryCommand.BAD_ARGUMENTS;
        }
        final List<Long> keys = java.util.Arrays.stream(parsed).boxed().toList();
        try (QueryCommand.Opened o = parent.open("sketch", "sketch " + sketchId,
            c -> null != StoreQueries.sketchConfig(c, sketchId), true))
        {
            if (0 != o.exitCode)
            {
                return o.exitCode;
            }
            final SketchQuery query = o.queries.sketch(sketchId);
            final SketchConfig sketch = StoreQueries.sketchConfig(o.collector, sketchId);
            if (!keys.isEmpty() && sketch.type() == SketchType.HYPERLOGLOG)
            {
                System.err.println("dta query sketch: sketch " + sketchId + " is a hyperloglog sketch: it has a " +
                    "cardinality, no per-key estimates (leave out --key)");
                return QueryCommand.BAD_ARGUMENTS;
            }
            final SketchEpoch read = query.read(e);
            final double[] estimates = new double[keys.size()];
            HyperLogLogEstimate cardinality = null;
            if (read.hasCells())
            {
                for (int i = 0; i < keys.size(); i++)
                {
                    estimates[i] = query.estimate(read, keys.get(i));
                }
                if (sketch.type() == SketchType.HYPERLOGLOG)
                {
                    cardinality = query.cardinality(read);
                }
            }
            if (json)
            {
                printJson(o.collector.name(), sketchId, read, keys, estimates, cardinality);
            }
            else
            {
                printText(o.collector.name(), sketchId, read, keys, estimates, cardinality);
            }
            return 0;
        }
    }

    private static String stateName(final SketchEpochState state)
    {
        return state.name().toLowerCase(Locale.ROOT);
    }

    private static void putNumber(final ObjectNode node, final String field, final double value)
    {
        if (value == Math.rint(value) && Math.abs(value) < 0x1p53)
        {
            node.put(field, (long)value);
        }
        else
        {
            node.put(field, value);
        }
    }

    private static void printJson(final String collector, final long sketchId, final SketchEpoch read,
        final List<Long> keys, final double[] estimates, final HyperLogLogEstimate cardinality)
    {
        final ObjectNode node = QueryCommand.MAPPER.createObjectNode();
        node.put("sketchId", sketchId);
        node.put("collector", collector);
        node.put("type", read.type().text());
        node.put("epoch", read.epoch());
        node.put("state", stateName(read.state()));
        node.put("complete", read.complete());
        node.put("rows", read.rows());
        node.put("columns", read.columns());
        node.put("switches", read.switches());
        final ArrayNode contributors = node.putArray("contributors");
        for (final int s : read.contributorIds())
        {
            contributors.add(s);
        }
        node.put("completeColumns", read.completeColumns());
        if (read.state() == SketchEpochState.ABSENT)
        {
            node.put("areaEpoch", read.areaEpoch());
            node.put("areaState", read.areaState());
        }
        if (null != read.problem())
        {
            node.put("problem", read.problem());
        }
        putCells(node, read);
        putEstimates(node, read, keys, estimates);
        if (read.type() == SketchType.HYPERLOGLOG)
        {
            putCardinality(node, cardinality);
        }
        QueryCommand.printJson(System.out, node);
    }

    private static void putCells(final ObjectNode node, final SketchEpoch read)
    {
        if (read.hasCells())
        {
            final ArrayNode counters = node.putArray("cells");
            for (int r = 0; r < read.rows(); r++)
            {
                final ArrayNode row = counters.addArray();
                for (int c = 0; c < read.columns(); c++)
                {
                    row.add(read.counter(r, c));
                }
            }
        }
        else
        {
            node.putNull("cells");
        }
    }

    private static void putEstimates(
        final ObjectNode node, final SketchEpoch read, final List<Long> keys, final double[] estimates)
    {
        if (keys.size() == 1)
        {
            node.put("key", keys.get(0));
            if (read.hasCells())
            {
                putNumber(node, "estimate", estimates[0]);
            }
            else
            {
                node.putNull("estimate");
            }
        }
        if (keys.size() > 1)
        {
            final ArrayNode list = node.putArray("estimates");
            for (int i = 0; i < keys.size(); i++)
            {
                final ObjectNode item = list.addObject().put("key", keys.get(i));
                if (read.hasCells())
                {
                    putNumber(item, "estimate", estimates[i]);
                }
                else
                {
                    item.putNull("estimate");
                }
            }
        }
    }

    private static void putCardinality(final ObjectNode node, final HyperLogLogEstimate cardinality)
    {
        if (null != cardinality)
        {
            node.put("cardinality", cardinality.cardinality());
            node.put("rawEstimate", cardinality.raw());
            node.put("zeroRegisters", cardinality.zeroRegisters());
            node.put("correction", cardinality.correction().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            node.put("standardError", cardinality.standardError());
        }
        else
        {
            node.putNull("cardinality");
        }
    }

    private static void printText(final String collector, final long sketchId, final SketchEpoch read,
        final List<Long> keys, final double[] estimates, final HyperLogLogEstimate cardinality)
    {
        final PrintStream out = System.out;
        out.printf("sketch %d (%s, %d x %d) on collector %s, epoch %d: %s%n", sketchId, read.type().text(),
            read.rows(), read.columns(), collector, read.epoch(), stateName(read.state()));
        switch (read.state())
        {
            case ABSENT -> out.printf("  not in its area: the area holds %s%n", read.areaState() == 0 ?
                "nothing (never written)" : "epoch " + read.areaEpoch() + " (state " + read.areaState() + ")");
            case INVALID, TORN -> out.println("  " + read.problem());
            default ->
            {
            }
        }
        if (read.state() != SketchEpochState.ABSENT && read.state() != SketchEpochState.INVALID)
        {
            final StringBuilder ids = new StringBuilder();
            for (final int s : read.contributorIds())
            {
                ids.append(ids.length() == 0 ? "" : ",").append(s);
            }
            out.printf("  contributors %d of %d switches [%s], complete columns %d of %d%n", read.contributors(),
                read.switches(), ids, read.completeColumns(), read.columns());
        }
        if (!read.hasCells())
        {
            return;
        }
        printCells(out, read);
        for (int i = 0; i < keys.size(); i++)
        {
            final double v = estimates[i];
            out.printf("  key %d: estimate %s%n", keys.get(i), v == Math.rint(v) ? Long.toString((long)v) :
                Double.toString(v));
        }
        if (null != cardinality)
        {
            out.printf("  cardinality %.1f (raw %.1f, %d zero registers, correction %s, standard error %.2f%%)%n",
                cardinality.cardinality(), cardinality.raw(), cardinality.zeroRegisters(),
                cardinality.correction().name().toLowerCase(Locale.ROOT).replace('_', '-'),
                100 * cardinality.standardError());
        }
    }

    /**
     * Each row's sum, minimum, maximum and non-zero cells, and the first {@value #TEXT_COLUMNS} columns.
     */
    private static void printCells(final PrintStream out, final SketchEpoch read)
    {
        final int shown = Math.min(TEXT_COLUMNS, read.columns());
        final StringBuilder header = new StringBuilder(String.format("  %-4s %12s %12s %12s %8s  |", "row", "sum",
            "min", "max", "nonzero"));
        for (int c = 0; c < shown; c++)
        {
            header.append(String.format(" %8s", "c" + c));
        }
        out.println(header);
        for (int r = 0; r < read.rows(); r++)
        {
            long sum = 0;
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            int nonZero = 0;
            for (int c = 0; c < read.columns(); c++)
            {
                final long v = read.counter(r, c);
                sum += v;
                min = Math.min(min, v);
                max = Math.max(max, v);
                nonZero += v != 0 ? 1 : 0;
            }
            final StringBuilder line = new StringBuilder(String.format("  %-4d %12d %12d %12d %8d  |", r, sum, min,
                max, nonZero));
            for (int c = 0; c < shown; c++)
            {
                line.append(String.format(" %8d", read.counter(r, c)));
            }
            out.println(line);
        }
        if (shown < read.columns())
        {
            out.printf("  (first %d of %d columns; all of them with --json)%n", shown, read.columns());
        }
    }
}
