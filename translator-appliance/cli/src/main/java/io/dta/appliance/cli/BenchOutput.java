package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.HotSpotDiagnosticMXBean;
import io.dta.appliance.bench.BenchContext;
import io.dta.appliance.bench.BenchInput;
import io.dta.appliance.engine.EngineCounter;
import io.dta.config.ApplianceConfig;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What {@code dta bench} prints besides each path's own figures: the source of the frames, a capture's counts, the
 * ring's, the warnings, and the result as one JSON object with its context.
 */
final class BenchOutput
{
    private final BenchOptions o;

    /**
     * @param options the options the bench runs with.
     */
    BenchOutput(final BenchOptions options)
    {
        this.o = options;
    }

    /**
     * Prints the result with {@code --json}: the figures and the context they were measured in.
     *
     * @param out       the figures, in the order printed.
     * @param appliance the configuration measured.
     * @throws Exception when the JSON cannot be written.
     */
    static void printJson(final Map<String, Object> out, final ApplianceConfig appliance) throws Exception
    {
        BenchContext.attach(out, appliance);
        System.out.println(new ObjectMapper().writeValueAsString(out));
    }

    /**
     * A ratio to three decimals, or null (JSON {@code null}) when there is none (NaN: a side counted no report).
     */
    static Double ratio(final double ratio)
    {
        return Double.isNaN(ratio) ? null : Math.round(ratio * 1000) / 1000.0;
    }

    static long totalDrops(final ToLongFunction<EngineCounter> delta)
    {
        long total = 0;
        for (final EngineCounter c : EngineCounter.values())
        {
            total += c.isDrop() ? delta.applyAsLong(c) : 0;
        }
        return total;
    }

    static String sourceName(final BenchInput frames)
    {
        return null == frames.file() ? frames.primitive().name().toLowerCase() : frames.file().toString();
    }

    /**
     * @param frames      the capture's frames with {@code --in}, or null for synthetic reports.
     * @param onHugepages whether the EAL runs on hugepages.
     * @return the figures a run through DPDK starts with: the source, the input, the pages, open loop.
     */
    Map<String, Object> throughDpdk(final BenchInput frames, final boolean onHugepages)
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        putSource(out, frames);
        out.put("io", "dpdk");
        out.put("input", o.input);
        out.put("hugepages", onHugepages);
        out.put("openLoop", true);
        return out;
    }

    void putSource(final Map<String, Object> out, final BenchInput frames)
    {
        if (null == frames || null == frames.file())
        {
            out.put("primitive", o.primitive.name().toLowerCase());
            return;
        }
        out.put("in", frames.file().toString());
        out.put("captureFrames", frames.count());
    }

    /**
     * With {@code --in}: frames fed against the reports among them, and the drops by reason over the measured phase
     * (the names of {@code dta replay --json}).
     */
    void putCaptureCounts(
        final Map<String, Object> out,
        final long framesIn,
        final double framesInPerSecond,
        final ToLongFunction<EngineCounter> delta)
    {
        if (null == o.in)
        {
            return;
        }
        out.put("framesIn", framesIn);
        out.put("framesInPerSecond", Math.round(framesInPerSecond));
        out.put("reportsTranslated", delta.applyAsLong(EngineCounter.REPORTS_TRANSLATED));
        out.put("roceFramesOut", delta.applyAsLong(EngineCounter.ROCE_FRAMES_OUT));
        out.put("otherFrames", delta.applyAsLong(EngineCounter.OTHER_FRAMES));
    }

    static void printCaptureCounts(
        final BenchInput frames,
        final long framesIn,
        final double framesInPerSecond,
        final long reportsIn,
        final ToLongFunction<EngineCounter> delta)
    {
        if (null == frames.file())
        {
            return;
        }
        System.out.printf("%s: %d frames, fed %d of them round and round (%.2f M frames/s): %d DTA reports among " +
            "them, %d routed to primitives, %d RoCEv2 frames out, %d other frames skipped%n", frames.file(),
            frames.count(), framesIn, framesInPerSecond / 1e6, reportsIn,
            delta.applyAsLong(EngineCounter.REPORTS_TRANSLATED), delta.applyAsLong(EngineCounter.ROCE_FRAMES_OUT),
            delta.applyAsLong(EngineCounter.OTHER_FRAMES));
        EngineSummary.printDrops(delta, System.out);
    }

    void warnOfNoReports(final long reportsIn, final ApplianceConfig appliance)
    {
        if (null != o.in && 0 == reportsIn)
        {
            System.err.println("dta bench: warning: no frame fed from " + o.in + " was a DTA report for this " +
                "configuration (reports.udpPort " + appliance.reports().udpPort() + "): the rates are those of " +
                "frames skipped");
        }
    }

    void putRing(final Map<String, Object> out, final long dry, final int lowest)
    {
        if ("ring".equals(o.input))
        {
            out.put("inputRingDry", dry);
            out.put("inputRingLowest", lowest);
        }
    }

    static void warnOfDryRing(final long dry)
    {
        if (dry > 0)
        {
            // A burst that found the ring empty measured idle time, not translation.
            System.err.println("dta bench: warning: the input ring ran dry " + dry + " times while measuring");
        }
    }

    /**
     * Synthetic reports should not be dropped (open loop through DPDK nothing is): a rate that includes drops is not
     * a translation rate, so say how many and why, by the names of {@code drops}.
     */
    static void warnOfDrops(final long drops, final ToLongFunction<EngineCounter> delta)
    {
        if (drops > 0)
        {
            System.err.println("dta bench: warning: the engine dropped " + drops + " reports or responses while " +
                "measuring (" + dropReasons(delta) + ")");
        }
    }

    /**
     * @param delta each counter's growth over the measured phase.
     * @return the non-zero drop reasons with their counts, as {@code drops} names them, largest first:
     * {@code dropAtomicQueueFull 79631, dropGracePeriod 12}.
     */
    static String dropReasons(final ToLongFunction<EngineCounter> delta)
    {
        final List<Map.Entry<String, Long>> reasons = new ArrayList<>(EngineSummary.nonZeroDrops(delta).entrySet());
        reasons.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        final StringBuilder sb = new StringBuilder();
        for (final Map.Entry<String, Long> e : reasons)
        {
            sb.append(sb.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
        }
        return sb.toString();
    }

    /**
     * A boolean HotSpot option as the JVM runs with it: the JVM turns some off itself (transparent huge pages on a
     * kernel without them), so the command line alone would not say.
     */
    static boolean vmFlag(final String name)
    {
        return Boolean.parseBoolean(
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption(name).getValue());
    }
}
