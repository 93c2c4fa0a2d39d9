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
import org.agrona.DirectBuffer;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Prometheus name of every counter a {@code dta} process writes into its counters file, from the counter's type
 * id, key and label: prefix {@code dta_}, the unit in the name, drop reasons, ports and workers as labels.
 * <ul>
 *   <li>Engine counters ({@link EngineCounters#TYPE_ID}): {@code dta_} and the counter's name in lower case
 *       ({@code dta_reports_in}); the drop counters as one family per thing dropped with a {@code reason} label:
 *       {@code dta_dropped_frames} (frames dropped before or at translation: {@code DROP_*} except those below),
 *       {@code dta_dropped_reports} (reports routed to a primitive and dropped: grace period, QP error, backlog
 *       full, atomic queue full, transmit full), {@code dta_dropped_responses} ({@code RESPONSE_DROP_*}) and
 *       {@code dta_dropped_operations} ({@code OPERATIONS_DROPPED_*}). Every engine counter has a {@code worker}
 *       label: the int at key offset 4, 0 for the one data-plane worker that writes them today, so a data plane
 *       of several workers adds series without renaming any.</li>
 *   <li>Port counters ({@link PortCounters#TYPE_ID}, label {@code port N DEVICE (ROLE): what}):
 *       {@code dta_port_} and the counted thing ({@code dta_port_rx_packets}), labels {@code port}, {@code device},
 *       {@code role}.</li>
 *   <li>Data-plane agent counters ({@link LiveAgent#TYPE_ID}): the label in words ({@code dta_duty_cycles}).</li>
 *   <li>Connection counters: {@code dta_connection_} and the counter ({@code dta_connection_reqs_sent}).</li>
 *   <li>The collector's responder counters: {@code dta_collector_} and the counter
 *       ({@code dta_collector_write_bytes}).</li>
 *   <li>Anything else: {@code dta_counter} with labels {@code type} and {@code counter} (its label).</li>
 * </ul>
 */
public final class CounterNaming
{
    /** The label of a data-plane worker. */
    public static final String WORKER = "worker";
    /** The label of a drop reason. */
    public static final String REASON = "reason";
    /** Key offset of the worker index in an engine counter's key (after the counter's ordinal). */
    public static final int WORKER_KEY_OFFSET = 4;

    private static final EngineCounter[] ENGINE = EngineCounter.values();
    private static final ConnectionCounter[] CONNECTION = ConnectionCounter.values();
    private static final ResponderCounter[] RESPONDER = ResponderCounter.values();
    private static final Pattern PORT_LABEL = Pattern.compile("port (\\d+) (\\S+) \\((.*)\\): (.+)");

    private CounterNaming()
    {
    }

    /**
     * @param typeId the counter's Agrona type id.
     * @param key    its key buffer.
     * @param label  its label.
     * @return its metric, or null for the totals of several workers (each worker's series is exported).
     */
    public static CounterMetric of(final int typeId, final DirectBuffer key, final String label)
    {
        return switch (typeId)
        {
            case EngineCounters.TYPE_ID, EngineCounters.WORKER_TYPE_ID ->
                engine(key.getInt(0), key.getInt(WORKER_KEY_OFFSET), typeId, label);
            case PortCounters.TYPE_ID -> port(typeId, label);
            case LiveAgent.TYPE_ID -> new CounterMetric("dta_" + words(label), label, Labels.EMPTY);
            case LiveTranslatorAgent.CONNECTION_TYPE_ID -> connection(key.getInt(0), typeId, label);
            case LiveCollectorAgent.RESPONDER_TYPE_ID -> responder(key.getInt(0), typeId, label);
            default -> other(typeId, label);
        };
    }

    private static CounterMetric engine(final int ordinal, final int worker, final int typeId, final String label)
    {
        if (ordinal < 0 || ordinal >= ENGINE.length)
        {
            return other(typeId, label);
        }
        if (EngineCounters.ALL_WORKERS == worker)
        {
            // The totals of several workers: each worker's series is exported; PromQL's sum() adds them up.
            return null;
        }
        final EngineCounter counter = ENGINE[ordinal];
        final String name = counter.name();
        final Labels labels = Labels.of(WORKER, Integer.toString(worker));
        if (name.startsWith("RESPONSE_DROP_"))
        {
            return dropped("responses", "Collector responses dropped, by reason", name, "RESPONSE_DROP_", labels);
        }
        if (name.startsWith("OPERATIONS_DROPPED_"))
        {
            return dropped("operations", "RDMA operations dropped, by reason", name, "OPERATIONS_DROPPED_", labels);
        }
        if (EngineCounter.REPORTS_DROPPED_TX_FULL == counter || counter.description().startsWith("reports dropped:"))
        {
            final String prefix = name.startsWith("DROP_") ? "DROP_" : "REPORTS_DROPPED_";
            return dropped("reports", "Reports routed to a primitive and dropped, by reason", name, prefix, labels);
        }
        if (name.startsWith("DROP_"))
        {
            return dropped("frames", "Frames dropped before or at translation, by reason", name, "DROP_", labels);
        }
        return new CounterMetric("dta_" + name.toLowerCase(Locale.ROOT), counter.description(), labels);
    }

    private static CounterMetric dropped(
        final String what, final String help, final String name, final String prefix, final Labels worker)
    {
        final String reason = name.substring(prefix.length()).toLowerCase(Locale.ROOT);
        return new CounterMetric("dta_dropped_" + what, help, worker.add(REASON, reason));
    }

    private static CounterMetric port(final int typeId, final String label)
    {
        final Matcher m = PORT_LABEL.matcher(label);
        if (!m.matches())
        {
            return other(typeId, label);
        }
        String what = words(m.group(4));
        // The unit where the words leave it out.
        if ("rx_missed".equals(what) || "tx_not_taken".equals(what))
        {
            what += "_packets";
        }
        return new CounterMetric("dta_port_" + what, "Port " + m.group(4),
            Labels.of("port", m.group(1), "device", m.group(2), "role", m.group(3)));
    }

    private static CounterMetric connection(final int ordinal, final int typeId, final String label)
    {
        if (-1 == ordinal)
        {
            return new CounterMetric("dta_connection_set_up_dropped_frames", label, Labels.EMPTY);
        }
        if (ordinal < 0 || ordinal >= CONNECTION.length)
        {
            return other(typeId, label);
        }
        return new CounterMetric(
            "dta_connection_" + CONNECTION[ordinal].name().toLowerCase(Locale.ROOT), label, Labels.EMPTY);
    }

    private static CounterMetric responder(final int ordinal, final int typeId, final String label)
    {
        if (ordinal < 0 || ordinal >= RESPONDER.length)
        {
            return other(typeId, label);
        }
        return new CounterMetric(
            "dta_collector_" + RESPONDER[ordinal].name().toLowerCase(Locale.ROOT), "Collector " + label, Labels.EMPTY);
    }

    private static CounterMetric other(final int typeId, final String label)
    {
        return new CounterMetric("dta_counter", "Other counters, by type id and label",
            Labels.of("type", "0x" + Integer.toHexString(typeId), "counter", label));
    }

    /**
     * A counter's label as a metric name part: the words before any parenthesis, lower case, joined by underscores
     * ({@code "rx missed (rx ring full)"} is {@code rx_missed}).
     */
    static String words(final String label)
    {
        final int paren = label.indexOf(" (");
        final String head = (paren > 0 ? label.substring(0, paren) : label).toLowerCase(Locale.ROOT);
        final String joined = head.replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        return joined.isEmpty() ? "unnamed" : joined;
    }
}
