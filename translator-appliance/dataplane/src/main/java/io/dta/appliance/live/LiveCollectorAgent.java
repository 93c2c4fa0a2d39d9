package io.dta.appliance.live;

import io.dta.appliance.dpdk.TxQueue;
import io.dta.appliance.dpdk.MbufFrameSink;
import io.dta.appliance.engine.FrameLimits;
import io.dta.appliance.stat.CountersFile;
import io.dta.collector.responder.ResponderCounter;
import io.dta.collector.responder.ResponseSink;
import io.dta.collector.responder.SoftResponder;
import io.dta.collector.store.StoreException;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import java.util.List;

/**
 * {@code dta collector} live: the soft collector on one DPDK port. Every RoCEv2 request is executed into the mapped
 * store by the {@link SoftResponder} and its ACK, NAK or ATOMIC ACK is copied into an mbuf and sent back on the
 * same port; ARP requests for the hosted collectors' IPs are answered with their configured MACs. Negotiated
 * regions are connected by the appliance's CM exchange on QP1 (REQ, RTU and the ACK of the metadata SEND come in
 * on the same port; REP, REJ and the SEND go back), and the responder's set-up timers run every duty cycle
 * ({@link SoftResponder#poll(long, ResponseSink)}). The responder's
 * counters ({@link ResponderCounter}) are copied to the counters file after every duty cycle that did work.
 * <p>
 * The responder, and so the store under it, is made only once the EAL, the pool and the port are up ({@link
 * ResponderFactory}): creating a store zero-fills its regions, and a start that fails (a mistyped port name, a bad EAL
 * argument) must leave the previous run's data as it was.
 */
public final class LiveCollectorAgent extends LiveAgent
{
    /** Agrona counter type id of responder counters; the key holds the {@link ResponderCounter} ordinal. */
    public static final int RESPONDER_TYPE_ID = 0x0D7A_0004;

    private static final ResponderCounter[] ALL = ResponderCounter.values();

    /**
     * Makes the responder over freshly created stores; called on the data-plane thread once the EAL, the pool and the
     * port are up, so that nothing that can still fail at start runs after the store was zero-filled.
     */
    @FunctionalInterface
    public interface ResponderFactory
    {
        /**
         * @return the responder over the created stores.
         * @throws StoreException when a store cannot be created.
         */
        SoftResponder create() throws StoreException;
    }

    private final ResponderFactory responderFactory;
    private SoftResponder responder;
    private final AtomicCounter[] responderCounters = new AtomicCounter[ALL.length];
    private final ResponseSink responses = this::onResponse;
    private MbufFrameSink sink;
    private TxQueue link;
    private boolean dirty;

    /**
     * @param config       validated configuration.
     * @param collectors   the collectors this process hosts (their IPs are answered for).
     * @param responderFactory makes the responder over their stores once the port is up.
     * @param settings     EAL arguments, the one port, timings.
     * @param countersFile the shared-memory counters file (the caller creates and closes it).
     */
    public LiveCollectorAgent(
        final ApplianceConfig config,
        final List<CollectorConfig> collectors,
        final ResponderFactory responderFactory,
        final LiveSettings settings,
        final CountersFile countersFile)
    {
        super(settings, new String[] { "collector link" }, countersFile, arpFor(collectors),
            FrameLimits.largestFrame(collectors));
        this.responderFactory = responderFactory;
        final CountersManager manager = countersFile.manager();
        for (final ResponderCounter c : ALL)
        {
            responderCounters[c.ordinal()] = manager.newCounter(c.label(), RESPONDER_TYPE_ID,
                key -> key.putInt(0, c.ordinal()));
        }
    }

    private static ArpResponder arpFor(final List<CollectorConfig> collectors)
    {
        final long[] macs = new long[collectors.size()];
        final int[] ips = new int[collectors.size()];
        for (int i = 0; i < ips.length; i++)
        {
            macs[i] = collectors.get(i).mac();
            ips[i] = collectors.get(i).ip();
        }
        return new ArpResponder(macs, ips);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void onStarted(final MbufFrameSink sink)
    {
        try
        {
            responder = responderFactory.create();
        }
        catch (final StoreException ex)
        {
            throw new IllegalStateException(ex.getMessage(), ex);
        }
        this.sink = sink;
        this.link = txQueue(0);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected int timers(final long nowNanos)
    {
        // Connection set-up timers of negotiated QPs: REP re-sends (lost RTU), metadata SEND retries (lost ACK).
        responder.poll(nowNanos, responses);
        if (dirty)
        {
            dirty = false;
            publish();
        }
        return 0;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void onFrame(final int role, final UnsafeBuffer frame, final long nowNanos)
    {
        responder.onFrame(frame, 0, frame.capacity(), nowNanos, responses);
        dirty = true;
    }

    private void onResponse(final DirectBuffer buffer, final int offset, final int length)
    {
        sink.send(link, buffer, offset, length);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected boolean reads(final int role, final boolean linksReady, final boolean draining)
    {
        // While stopping, only to hear the DREPs of the collector's own DREQs.
        return !draining || responder.disconnecting();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void startDrain(final long nowNanos)
    {
        // The responder holds nothing back (every response is sent at once), but its negotiated connections end
        // with a DREQ each, so that translators reconnect or give up now rather than after a silence timeout. No new
        // connection is accepted first: a translator reconnecting at once gets a REJ, not a REP from a dying process.
        responder.stopListening();
        final int disconnecting = responder.disconnectAll(nowNanos, responses);
        if (disconnecting > 0)
        {
            // Once, at the stop: not the hot path.
            System.err.println(messagePrefix() + ": disconnecting " + disconnecting + " negotiated connection(s)");
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected boolean drained()
    {
        return !responder.disconnecting();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void publish()
    {
        if (null == responder)
        {
            // The start failed before the responder was made (the final tick of the close still comes here).
            return;
        }
        for (final ResponderCounter c : ALL)
        {
            responderCounters[c.ordinal()].setRelease(responder.counter(c));
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String messagePrefix()
    {
        return "dta collector";
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String roleName()
    {
        return "dta-collector";
    }

    /**
     * @return the responder, or null when the start failed before it was made (EAL, pool, port or store).
     */
    public SoftResponder responder()
    {
        return responder;
    }
}
