package io.dta.appliance.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.engine.worker.EngineGroup;
import io.dta.appliance.replay.CutShortCapture;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The end-of-run summary of an engine: reports in, frames out per QP, drops by reason and the other counters (the
 * text lists the non-zero ones, the JSON every one, 0 included).
 */
final class EngineSummary
{
    private EngineSummary()
    {
    }

    static Map<String, Object> toMap(final TranslatorEngine engine)
    {
        return toMap(EngineGroup.of(engine), null);
    }

    /**
     * @param cutShort the inputs of a replay that were cut short, listed as {@code inputsCutShort} (empty when none
     *                 was); null for a run with no input captures, which has no such field.
     */
    static Map<String, Object> toMap(final EngineGroup engine, final List<CutShortCapture> cutShort)
    {
        final EngineCounters counters = engine.counters();
        final Map<String, Object> root = new LinkedHashMap<>();
        root.put("reportsIn", counters.get(EngineCounter.REPORTS_IN));
        root.put("reportsTranslated", counters.get(EngineCounter.REPORTS_TRANSLATED));
        root.put("framesIn", counters.get(EngineCounter.FRAMES_IN));
        root.put("roceFramesOut", counters.get(EngineCounter.ROCE_FRAMES_OUT));
        root.put("otherFrames", counters.get(EngineCounter.OTHER_FRAMES));
        root.put("reportsPending", counters.reportsPending());
        root.put("workers", engine.workers());
        final List<Map<String, Object>> qps = new ArrayList<>();
        for (final QueuePairSender s : engine.senders())
        {
            final Map<String, Object> qp = new LinkedHashMap<>();
            qp.put("name", s.path().name());
            qp.put("worker", engine.workerOf(s));
            qp.put("localQpn", s.path().localQpn());
            qp.put("collectorQpn", s.path().remoteQpn());
            qp.put("framesOut", s.framesOut());
            qp.put("bytesOut", s.bytesOut());
            qp.put("nextPsn", s.nextPsn());
            qp.put("resyncs", s.resyncs());
            qp.put("state", s.state().name());
            qp.put("essentialBacklog", s.essentialBacklog());
            qps.add(qp);
        }
        root.put("queuePairs", qps);
        final Map<String, Long> drops = new LinkedHashMap<>();
        final Map<String, Long> other = new LinkedHashMap<>();
        for (final EngineCounter c : EngineCounter.values())
        {
            // Every reason and counter, 0 included: a consumer looks a key up without knowing which ones can be absent.
            (c.isDrop() ? drops : other).put(camel(c.name()), counters.get(c));
        }
        root.put("drops", drops);
        root.put("counters", other);
        if (null != cutShort)
        {
            final List<Map<String, Object>> cuts = new ArrayList<>();
            for (final CutShortCapture cut : cutShort)
            {
                final Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("input", cut.input());
                entry.put("file", cut.file().toString());
                entry.put("offset", cut.offset());
                entry.put("wholePackets", cut.wholePackets());
                cuts.add(entry);
            }
            root.put("inputsCutShort", cuts);
        }
        return root;
    }

    static void print(final TranslatorEngine engine, final boolean json, final PrintStream out)
    {
        print(EngineGroup.of(engine), null, json, out);
    }

    static void print(
        final EngineGroup engine, final List<CutShortCapture> cutShort, final boolean json, final PrintStream out)
    {
        if (json)
        {
            try
            {
                out.println(new ObjectMapper().writeValueAsString(toMap(engine, cutShort)));
            }
            catch (final JsonProcessingException ex)
            {
                throw new IllegalStateException(ex);
            }
            return;
        }
        final EngineCounters counters = engine.counters();
        out.printf("reports in %d, routed to primitives %d, RoCEv2 frames out %d, other frames skipped %d%n",
            counters.get(EngineCounter.REPORTS_IN), counters.get(EngineCounter.REPORTS_TRANSLATED),
            counters.get(EngineCounter.ROCE_FRAMES_OUT), counters.get(EngineCounter.OTHER_FRAMES));
        out.printf("%-28s %10s %10s %12s %10s %8s %-8s%n", "queue pair", "local QPN", "frames", "bytes", "next PSN",
            "resyncs", "state");
        for (final QueuePairSender s : engine.senders())
        {
            out.printf("%-28s   0x%06x %10d %12d   0x%06x %8d %-8s%n", engine.workers() == 1 ? s.path().name() :
                s.path().name() + " w" + engine.workerOf(s), s.path().localQpn(),
                s.framesOut(), s.bytesOut(), s.nextPsn(), s.resyncs(), s.state());
        }
        printDrops(counters::get, out);
        printPending(engine, out);
        out.println("counters:");
        for (final EngineCounter c : EngineCounter.values())
        {
            if (!c.isDrop() && 0 != counters.get(c))
            {
                out.printf("  %-45s %d%n", c.description(), counters.get(c));
            }
        }
    }

    /**
     * The reports routed to a primitive but neither delivered nor dropped when the summary is printed, which the
     * balance of reports would otherwise leave unexplained: after a replay whose responses ended, essential reports
     * sent and never acknowledged (or kept by a stopped QP), FETCH_ADDs waiting for atomic credit. Nothing when none.
     */
    private static void printPending(final EngineGroup engine, final PrintStream out)
    {
        final long pending = engine.counters().reportsPending();
        if (0 == pending)
        {
            return;
        }
        final String qps = notQuiescent(engine);
        out.printf("reports pending %d: neither delivered nor dropped (sent and never acknowledged, kept by a " +
            "stopped QP, or waiting for atomic credit) on %s%n", pending, qps.isEmpty() ? "no QP" : qps);
    }

    /**
     * @param engine the engine.
     * @return its QPs that are not quiescent, as {@code name STATE (essential backlog K)}, comma-separated; empty when
     * every QP is.
     */
    static String notQuiescent(final TranslatorEngine engine)
    {
        return notQuiescent(EngineGroup.of(engine));
    }

    /**
     * @param engine the workers.
     * @return their QPs that are not quiescent, as {@code name STATE (essential backlog K)}, comma-separated; empty
     * when every QP is.
     */
    static String notQuiescent(final EngineGroup engine)
    {
        final StringBuilder qps = new StringBuilder();
        for (final QueuePairSender s : engine.senders())
        {
            if (!s.isQuiescent())
            {
                qps.append(qps.isEmpty() ? "" : ", ").append(s.path().name()).append(' ').append(s.state())
                    .append(" (essential backlog ").append(s.essentialBacklog()).append(')');
            }
        }
        return qps.toString();
    }

    /**
     * The drop reasons whose counter is not 0, named as {@code dta replay --json} names them in its {@code drops}.
     *
     * @param value each counter's value (the engine's, or its growth over a measured phase).
     * @return reason to count, in the counters' order.
     */
    static Map<String, Long> nonZeroDrops(final ToLongFunction<EngineCounter> value)
    {
        final Map<String, Long> drops = new LinkedHashMap<>();
        for (final EngineCounter c : EngineCounter.values())
        {
            if (c.isDrop() && 0 != value.applyAsLong(c))
            {
                drops.put(camel(c.name()), value.applyAsLong(c));
            }
        }
        return drops;
    }

    /**
     * The drops as the replay's text summary lists them: {@code drops:} and one line per reason that is not 0, or
     * {@code drops: none}.
     *
     * @param value each counter's value.
     * @param out   where to print.
     */
    static void printDrops(final ToLongFunction<EngineCounter> value, final PrintStream out)
    {
        boolean anyDrop = false;
        for (final EngineCounter c : EngineCounter.values())
        {
            if (c.isDrop() && 0 != value.applyAsLong(c))
            {
                if (!anyDrop)
                {
                    out.println("drops:");
                    anyDrop = true;
                }
                out.printf("  %-45s %d%n", c.description(), value.applyAsLong(c));
            }
        }
        if (!anyDrop)
        {
            out.println("drops: none");
        }
    }

    static String camel(final String constant)
    {
        final StringBuilder sb = new StringBuilder();
        boolean upper = false;
        for (final char c : constant.toLowerCase().toCharArray())
        {
            if ('_' == c)
            {
                upper = true;
            }
            else
            {
                sb.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return sb.toString();
    }
}
