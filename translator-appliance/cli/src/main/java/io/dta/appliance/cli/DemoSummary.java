package io.dta.appliance.cli;

import io.dta.appliance.demo.ClosedLoopDemo;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.collector.responder.ResponderCounter;
import io.dta.collector.store.CollectorStore;
import io.dta.config.ApplianceConfig;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code dta demo} reports once its run is quiescent: the translator's counters and drops, both links, the
 * collector's counters, the request-to-ACK latency, whether every essential operation landed, each QP, and sample
 * queries of the stores; as JSON or as text.
 */
final class DemoSummary
{
    private DemoSummary()
    {
    }

    /**
     * @param appliance   the collector's side of the configuration.
     * @param demo        the demo, run.
     * @param stores      the collectors' stores, for the sample queries.
     * @param sampleKeys  each collector's last key of each primitive.
     * @param loss        the loss each way.
     * @param seed        the seed.
     * @param wallSeconds the run's wall-clock time.
     * @return the summary, in the order printed (JSON names).
     */
    static Map<String, Object> of(
        final ApplianceConfig appliance,
        final ClosedLoopDemo demo,
        final List<CollectorStore> stores,
        final List<DemoQueries.Keys> sampleKeys,
        final double loss,
        final long seed,
        final double wallSeconds)
    {
        final var counters = demo.group().counters();
        final Map<String, Object> root = new LinkedHashMap<>();
        root.put("reports", demo.reports());
        root.put("workers", demo.group().workers());
        root.put("lossPerDirection", loss);
        root.put("seed", seed);
        root.put("wallSeconds", wallSeconds);
        root.put("reportsPerSecond", Math.round(demo.reports() / Math.max(1e-9, wallSeconds)));
        root.put("simulatedSeconds", demo.simulatedNanos() / 1e9);
        root.put("quiescent", demo.quiescent());
        if (null != demo.connections())
        {
            root.put("connections", connectionSummary(demo));
        }
        root.put("translator", translatorSummary(demo));
        final long[] down = demo.toCollectorStats();
        final long[] up = demo.toTranslatorStats();
        root.put("link", Map.of(
            "toCollector", Map.of("frames", down[0], "lost", down[1]),
            "toTranslator", Map.of("frames", up[0], "lost", up[1])));
        final Map<String, Long> collector = new LinkedHashMap<>();
        for (final ResponderCounter c : ResponderCounter.values())
        {
            final long v = demo.responder().counter(c);
            if (0 != v)
            {
                collector.put(EngineSummary.camel(c.name()), v);
            }
        }
        root.put("collectorCounters", collector);
        root.put("requestToAckLatency", latencySummary(demo.latency()));
        // Unacknowledged (still in a ring) and dropped (refused by a full ring) are different fates: a quiescent
        // run has none of the first, yet may have lost operations, sketch WRITEs with no report in them included.
        final Map<String, Object> essentialSummary = new LinkedHashMap<>();
        essentialSummary.put("reports", counters.get(EngineCounter.ESSENTIAL_REPORTS));
        essentialSummary.put("unacknowledged", demo.essentialUnacknowledged());
        essentialSummary.put("operationsDroppedBacklogFull", demo.essentialDroppedBacklogFull());
        essentialSummary.put("allLanded", 0 == demo.essentialOutstanding());
        root.put("essentialDelivery", essentialSummary);
        root.put("queuePairs", queuePairSummary(demo));
        root.put("queries", DemoQueries.of(appliance, stores, sampleKeys));
        return root;
    }

    private static Map<String, Object> translatorSummary(final ClosedLoopDemo demo)
    {
        final var counters = demo.group().counters();
        final Map<String, Object> translator = new LinkedHashMap<>();
        translator.put("reportsIn", counters.get(EngineCounter.REPORTS_IN));
        translator.put("reportsTranslated", counters.get(EngineCounter.REPORTS_TRANSLATED));
        translator.put("roceFramesOut", counters.get(EngineCounter.ROCE_FRAMES_OUT));
        translator.put("nakSequenceErrorsIn", counters.get(EngineCounter.NAK_SEQUENCE_ERRORS_IN));
        translator.put("probesOut", counters.get(EngineCounter.PROBES_OUT));
        translator.put("probeResyncs", counters.get(EngineCounter.PROBE_RESYNCS));
        translator.put("essentialReports", counters.get(EngineCounter.ESSENTIAL_REPORTS));
        translator.put("essentialResent", counters.get(EngineCounter.ESSENTIAL_RESENT));
        translator.put("reportsResentByReporters", demo.reportsResent());
        final Map<String, Long> drops = new LinkedHashMap<>();
        for (final EngineCounter c : EngineCounter.values())
        {
            if (c.isDrop() && 0 != counters.get(c))
            {
                drops.put(EngineSummary.camel(c.name()), counters.get(c));
            }
        }
        translator.put("drops", drops);
        return translator;
    }

    private static Map<String, Object> latencySummary(final Histogram h)
    {
        final Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("samples", h.getTotalCount());
        for (final double p : new double[] { 50, 90, 99, 99.9 })
        {
            // p99.9 is p999: a key is letters and digits.
            latency.put("p" + Double.toString(p).replace(".0", "").replace(".", "") + "Micros",
                h.getValueAtPercentile(p) / 1000.0);
        }
        latency.put("maxMicros", h.getMaxValue() / 1000.0);
        return latency;
    }

    private static List<Map<String, Object>> queuePairSummary(final ClosedLoopDemo demo)
    {
        final List<Map<String, Object>> qps = new ArrayList<>();
        final TranslatorEngine[] engines = demo.group().engines();
        for (int w = 0; w < engines.length; w++)
        {
            for (final QueuePairSender s : engines[w].senders())
            {
                final Map<String, Object> qp = new LinkedHashMap<>();
                qp.put("name", s.path().name());
                qp.put("worker", w);
                qp.put("localQpn", s.path().localQpn());
                qp.put("framesOut", s.framesOut());
                qp.put("resyncs", s.resyncs());
                qp.put("state", s.state().name());
                qps.add(qp);
            }
        }
        return qps;
    }

    private static Map<String, Object> connectionSummary(final ClosedLoopDemo demo)
    {
        final Map<String, Object> connection = ConnectionJson.of(demo.workerConnections());
        connection.put("virtualMicros", demo.connectedAtNanos() / 1000.0);
        return connection;
    }

    @SuppressWarnings("unchecked")
    private static void printConnections(final Map<String, Object> connection)
    {
        System.out.printf("  connection set-up: %s in %.1f µs (virtual)%n", connection.get("summary"),
            (Double)connection.get("virtualMicros"));
        for (final Map<String, Object> region : (List<Map<String, Object>>)connection.get("regions"))
        {
            final Object worker = region.get("worker");
            System.out.printf("    %-28s port %-5s %-9s QPN 0x%06x rkey 0x%08x address 0x%x length %s, first PSN " +
                "0x%06x%n", null == worker ? region.get("region") : region.get("region") + " (worker " + worker + ")",
                region.get("servicePort"), region.get("state"),
                region.get("collectorQpn"), region.get("rkey"), region.get("address"), region.get("length"),
                region.get("startPsn"));
        }
        final Map<String, Long> cc = (Map<String, Long>)connection.get("counters");
        if (0 != cc.get("reconnectAttempts"))
        {
            System.out.printf("  reconnection: %d attempt(s), %d reconnected, %d failed, %d region(s) given up%n",
                cc.get("reconnectAttempts"), cc.get("reconnects"), cc.get("reconnectFailures"),
                cc.get("reconnectsExhausted"));
        }
    }

    /**
     * Prints the summary as text.
     *
     * @param r the summary of {@link #of}.
     */
    @SuppressWarnings("unchecked")
    static void print(final Map<String, Object> r)
    {
        final Map<String, Object> t = (Map<String, Object>)r.get("translator");
        System.out.printf("dta demo: %,d reports, %.1f%% loss each way, seed %s, %d worker%s%n",
            (Long)r.get("reports"), 100 * (Double)r.get("lossPerDirection"), r.get("seed"), (Integer)r.get("workers"),
            1 == (Integer)r.get("workers") ? "" : "s (reports spread as RSS would; lists, flows and sketches handled " +
            "by their owner)");
        System.out.printf("  %.3f s of traffic simulated in %.2f s (%,d reports/s), quiescent: %s%n",
            (Double)r.get("simulatedSeconds"), (Double)r.get("wallSeconds"), (Long)r.get("reportsPerSecond"),
            r.get("quiescent"));
        System.out.printf("  translator: %,d reports in, %,d routed to primitives, %,d RoCEv2 frames out, %d NAK resyncs, " +
            "%d probes (%d probe resyncs)%n", (Long)t.get("reportsIn"), (Long)t.get("reportsTranslated"),
            (Long)t.get("roceFramesOut"), (Long)t.get("nakSequenceErrorsIn"), (Long)t.get("probesOut"),
            (Long)t.get("probeResyncs"));
        final Map<String, Object> connection = (Map<String, Object>)r.get("connections");
        if (null != connection)
        {
            printConnections(connection);
        }
        final Map<String, Map<String, Long>> link = (Map<String, Map<String, Long>>)r.get("link");
        System.out.printf("  link: to collector %,d frames, %,d lost; to translator %,d frames, %,d lost%n",
            link.get("toCollector").get("frames"), link.get("toCollector").get("lost"),
            link.get("toTranslator").get("frames"), link.get("toTranslator").get("lost"));
        final Map<String, Object> lat = (Map<String, Object>)r.get("requestToAckLatency");
        System.out.printf("  request-to-ACK latency (µs, virtual clock): p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  " +
            "max %.1f  (%,d samples)%n", lat.get("p50Micros"), lat.get("p90Micros"), lat.get("p99Micros"),
            lat.get("p999Micros"), lat.get("maxMicros"), (Long)lat.get("samples"));
        System.out.println("  translator drops by reason:");
        final Map<String, Long> drops = (Map<String, Long>)t.get("drops");
        if (drops.isEmpty())
        {
            System.out.println("    none");
        }
        drops.forEach((k, v) -> System.out.printf("    %-32s %,d%n", k, v));
        System.out.println("  collector:");
        ((Map<String, Long>)r.get("collectorCounters")).forEach((k, v) -> System.out.printf("    %-32s %,d%n", k, v));
        final Map<String, Object> e = (Map<String, Object>)r.get("essentialDelivery");
        final long dropped = (Long)e.get("operationsDroppedBacklogFull");
        System.out.printf("  essential reports: %,d; every essential operation (with every sketch WRITE) acknowledged " +
            "by the collector: %s%n", (Long)e.get("reports"), Boolean.TRUE.equals(e.get("allLanded")) ? "yes" :
            "NO, " + e.get("unacknowledged") + " unacknowledged" + (0 == dropped ? "" : ", " + dropped +
            " dropped for a full essential backlog (OPERATIONS_DROPPED_BACKLOG_FULL): raise essential.backlog"));
        System.out.println("  queue pairs:");
        for (final Map<String, Object> qp : (List<Map<String, Object>>)r.get("queuePairs"))
        {
            final String name = 1 == (Integer)r.get("workers") ? (String)qp.get("name") :
                qp.get("name") + " (worker " + qp.get("worker") + ")";
            System.out.printf("    %-30s %,10d frames %5d resyncs  %s%n", name, (Long)qp.get("framesOut"),
                (Long)qp.get("resyncs"), qp.get("state"));
        }
        System.out.println("  sample queries:");
        for (final Map<String, Object> q : (List<Map<String, Object>>)r.get("queries"))
        {
            System.out.println("    " + DemoQueries.line(q));
        }
    }
}
