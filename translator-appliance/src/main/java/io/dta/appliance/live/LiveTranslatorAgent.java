package io.dta.appliance.live;

import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.stat.CountersFile;
import io.dta.config.ApplianceConfig;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@code dta run}: the translator live on DPDK. Reports come in on the reports port; the engine's RoCEv2 frames go
 * out on the collector link, and the collector's ACKs, NAKs and ATOMIC ACKs come back on it (the two may be one
 * port); NACKs to reporters go out on the reports port. ARP requests for {@code translator.ip} are answered on both.
 * The engine clock is {@link System#nanoTime()}; its timers run every duty cycle.
 * <p>
 * Reports are not read until every link is up (a {@code net_memif} link is up once its peer connected), or the
 * link wait is over, so that the first reports are not translated into frames a dead link would drop.
 */
public final class LiveTranslatorAgent extends LiveAgent
{
    /** Role index of the reports port. */
    public static final int REPORTS = 0;
    /** Role index of the collector link. */
    public static final int COLLECTOR_LINK = 1;

    private final ApplianceConfig config;
    private final EngineCounters counters;
    private TranslatorEngine engine;

    /**
     * @param config       validated configuration (static regions).
     * @param settings     EAL arguments, ports (reports, then collector link), timings.
     * @param countersFile the shared-memory counters file (the caller creates and closes it).
     */
    public LiveTranslatorAgent(
        final ApplianceConfig config, final LiveSettings settings, final CountersFile countersFile)
    {
        super(settings, new String[] { "reports", "collector link" }, countersFile,
            new ArpResponder(config.translator().mac(), config.translator().ip()));
        this.config = config;
        this.counters = new EngineCounters(countersFile.manager());
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void onStarted(final LiveFrameSink sink)
    {
        engine = new TranslatorEngine(config, sink, true, counters);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected int timers(final long nowNanos)
    {
        return engine.poll(nowNanos);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void onFrame(final int role, final UnsafeBuffer frame, final long nowNanos)
    {
        engine.onFrame(frame, 0, frame.capacity(), nowNanos);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected boolean reads(final int role, final boolean linksReady, final boolean draining)
    {
        // The collector link is always read (responses, ARP); new reports wait for the links and stop at a drain.
        return COLLECTOR_LINK == role || (linksReady && !draining);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void startDrain(final long nowNanos)
    {
        engine.flush(nowNanos);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected boolean drained()
    {
        return engine.isQuiescent();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void publish()
    {
        // Engine counters are written to the file as they change.
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String roleName()
    {
        return "dta-translator";
    }

    /**
     * @return the engine (null before {@link #onStart()}).
     */
    public TranslatorEngine engine()
    {
        return engine;
    }

    /**
     * @return the engine's counters (in the counters file).
     */
    public EngineCounters counters()
    {
        return counters;
    }
}
