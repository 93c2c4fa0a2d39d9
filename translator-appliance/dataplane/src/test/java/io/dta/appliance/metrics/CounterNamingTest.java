package io.dta.appliance.metrics;

import io.dta.appliance.connect.ConnectionCounter;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.live.LiveAgent;
import io.dta.appliance.live.LiveCollectorAgent;
import io.dta.appliance.live.LiveTranslatorAgent;
import io.dta.appliance.live.PortCounters;
import io.dta.collector.responder.ResponderCounter;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CounterNamingTest
{
    private static CounterMetric engine(final EngineCounter counter, final int worker)
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[112]);
        key.putInt(0, counter.ordinal());
        key.putInt(CounterNaming.WORKER_KEY_OFFSET, worker);
        return CounterNaming.of(EngineCounters.TYPE_ID, key, counter.description());
    }

    private static CounterMetric keyed(final int typeId, final int ordinal, final String label)
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[112]);
        key.putInt(0, ordinal);
        return CounterNaming.of(typeId, key, label);
    }

    @Test
    void shouldNameEngineCountersWithTheUnitAndDropReasonsAsLabels()
    {
        assertEquals(new CounterMetric("dta_reports_in", "DTA reports in", Labels.of("worker", "0")),
            engine(EngineCounter.REPORTS_IN, 0));
        assertEquals(new CounterMetric("dta_roce_frames_out", "RoCEv2 frames out", Labels.of("worker", "3")),
            engine(EngineCounter.ROCE_FRAMES_OUT, 3));
        assertEquals("dta_dropped_frames", engine(EngineCounter.DROP_MALFORMED, 0).name());
        assertEquals(Labels.of("reason", "malformed", "worker", "0"), engine(EngineCounter.DROP_MALFORMED, 0).labels());
        assertEquals(Labels.of("reason", "tx_full", "worker", "0"), engine(EngineCounter.DROP_TX_FULL, 0).labels());
        assertEquals("dta_dropped_reports", engine(EngineCounter.DROP_GRACE_PERIOD, 0).name());
        assertEquals(Labels.of("reason", "tx_full", "worker", "0"),
            engine(EngineCounter.REPORTS_DROPPED_TX_FULL, 0).labels());
        assertEquals("dta_dropped_reports", engine(EngineCounter.REPORTS_DROPPED_TX_FULL, 0).name());
        assertEquals("dta_dropped_responses", engine(EngineCounter.RESPONSE_DROP_BAD_ICRC, 0).name());
        assertEquals(Labels.of("reason", "bad_icrc", "worker", "0"), engine(EngineCounter.RESPONSE_DROP_BAD_ICRC, 0).labels());
        assertEquals("dta_dropped_operations", engine(EngineCounter.OPERATIONS_DROPPED_QP_ERROR, 0).name());
    }

    @Test
    void shouldGiveEveryCounterItsOwnValidSeriesAndOneHelpPerFamily()
    {
        final Set<String> series = new HashSet<>();
        final java.util.Map<String, String> help = new java.util.HashMap<>();
        for (final EngineCounter c : EngineCounter.values())
        {
            check(engine(c, 0), series, help);
        }
        for (final ConnectionCounter c : ConnectionCounter.values())
        {
            check(keyed(LiveTranslatorAgent.CONNECTION_TYPE_ID, c.ordinal(), "connection " + c.label()), series, help);
        }
        check(keyed(LiveTranslatorAgent.CONNECTION_TYPE_ID, -1, "frames dropped: connection set-up in progress"),
            series, help);
        for (final ResponderCounter c : ResponderCounter.values())
        {
            check(keyed(LiveCollectorAgent.RESPONDER_TYPE_ID, c.ordinal(), c.label()), series, help);
        }
        for (final String label : new String[] { "ARP requests answered", "ARP packets ignored (other targets, replies)",
            "frames dropped: mbuf pool empty", "duty cycles", "frames dropped: worker hand-over full" })
        {
            check(keyed(LiveAgent.TYPE_ID, 0, label), series, help);
        }
    }

    private static void check(final CounterMetric metric, final Set<String> series, final java.util.Map<String, String> help)
    {
        assertTrue(PrometheusNaming.isValidMetricName(metric.name()), metric.name());
        assertTrue(metric.name().startsWith("dta_") && !metric.name().endsWith("_total"), metric.name());
        assertTrue(series.add(metric.name() + metric.labels()), "two counters are " + metric);
        final String before = help.putIfAbsent(metric.name(), metric.help());
        assertTrue(null == before || before.equals(metric.help()), metric.name() + ": two help texts");
    }

    @Test
    void shouldNamePortCountersWithThePortAsLabels()
    {
        final CounterMetric missed = keyed(PortCounters.TYPE_ID, 0, "port 1 net_memif0 (reports, collector link): rx missed (rx ring full)");
        assertEquals("dta_port_rx_missed_packets", missed.name());
        assertEquals(Labels.of("port", "1", "device", "net_memif0", "role", "reports, collector link"), missed.labels());
        assertEquals("dta_port_rx_bytes", keyed(PortCounters.TYPE_ID, 0, "port 0 net_ring0 (reports): rx bytes").name());
        assertEquals("dta_port_reconnections",
            keyed(PortCounters.TYPE_ID, 0, "port 0 net_memif1 (collector link): reconnections (link up again)").name());
    }

    @Test
    void shouldKeepAnUnknownCounterUnderItsLabel()
    {
        final CounterMetric other = keyed(0x1234, 0, "something new: 5 things");
        assertEquals("dta_counter", other.name());
        assertEquals(Labels.of("counter", "something new: 5 things", "type", "0x1234"), other.labels());
        assertEquals("dta_counter", keyed(EngineCounters.TYPE_ID, 999, "from a newer writer").name());
    }
}
