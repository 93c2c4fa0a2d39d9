package io.dta.appliance.dpdk;

import io.dta.appliance.engine.TranslatorEngine;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.EthQueue;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.RxFrames;
import io.dta.dpdk.Mempool;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The DPDK data plane of one worker, as an Agrona {@link Agent}: each duty cycle runs the engine's timers, takes
 * one rx burst from every input port, hands each frame to the engine in place (an {@link UnsafeBuffer} over the
 * mbuf's data, no copy), returns the burst to the pool in one call, and sends the frames the engine wrote into
 * mbufs ({@link MbufFrameSink}) in one tx burst. Nothing is allocated per packet.
 * <p>
 * Run it with an {@code AgentRunner} (or {@link #doWork()} in a loop) on the EAL main lcore, with an idle strategy
 * from {@link IdleStrategies}: the default backs off only when a duty cycle found no work, so a busy data plane
 * spins and an idle one sleeps.
 */
public final class DataPlaneAgent implements Agent
{
    private final TranslatorEngine engine;
    private final MbufFrameSink sink;
    private final EthQueue[] rxPorts;
    private final NanoClock clock;
    private final int burst;
    private final MbufArray rx;
    private final RxFrames rxFrames;
    private final UnsafeBuffer frame = new UnsafeBuffer(0, 0);
    private long framesIn;
    private long lastNanos;

    /**
     * @param engine  the engine, built over {@code sink}.
     * @param sink    where the engine's frames go.
     * @param rxPorts input ports (reports, and the collector link when it is another port).
     * @param burst   packets per rx burst (32 is DPDK's usual).
     * @param clock   the engine clock (for example {@code SystemNanoClock.INSTANCE}).
     */
    public DataPlaneAgent(
        final TranslatorEngine engine,
        final MbufFrameSink sink,
        final EthPort[] rxPorts,
        final int burst,
        final NanoClock clock)
    {
        this(engine, sink, queuesZero(rxPorts), burst, clock);
    }

    /**
     * @param engine   the engine, built over {@code sink}.
     * @param sink     where the engine's frames go.
     * @param rxQueues the worker's own rx queues of its input ports.
     * @param burst    packets per rx burst (32 is DPDK's usual).
     * @param clock    the engine clock (for example {@code SystemNanoClock.INSTANCE}).
     */
    public DataPlaneAgent(
        final TranslatorEngine engine,
        final MbufFrameSink sink,
        final EthQueue[] rxQueues,
        final int burst,
        final NanoClock clock)
    {
        this.engine = engine;
        this.sink = sink;
        this.rxPorts = rxQueues.clone();
        this.burst = burst;
        this.clock = clock;
        this.rx = new MbufArray(burst);
        this.rxFrames = new RxFrames(burst);
    }

    private static EthQueue[] queuesZero(final EthPort[] ports)
    {
        final EthQueue[] queues = new EthQueue[ports.length];
        for (int i = 0; i < ports.length; i++)
        {
            queues[i] = ports[i].queue(0);
        }
        return queues;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int doWork()
    {
        return doWork(Integer.MAX_VALUE);
    }

    /**
     * A duty cycle that takes at most {@code maxFrames} frames over all input ports (each port's burst shortened
     * to what is left), so that a bench receives exactly the frames it counts: its last burst partial.
     *
     * @param maxFrames the most frames to take, at least 1.
     * @return the work done, as {@link #doWork()}.
     */
    public int doWork(final int maxFrames)
    {
        final long now = clock.nanoTime();
        lastNanos = now;
        int work = engine.poll(now);
        int left = maxFrames;
        for (final EthQueue port : rxPorts)
        {
            final int n = left > 0 ? port.rxBurst(rx, rxFrames, Math.min(burst, left)) : 0;
            for (int i = 0; i < n; i++)
            {
                frame.wrap(rxFrames.address(i), rxFrames.length(i));
                engine.onFrame(frame, 0, frame.capacity(), now);
            }
            Mempool.freeBulk(rx, n);
            framesIn += n;
            work += n;
            left -= n;
        }
        return work + sink.flush();
    }

    /**
     * Flushes partial batches, cached postcards and held frames, and sends them.
     */
    @Override
    public void onClose()
    {
        engine.flush(clock.nanoTime());
        sink.flush();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String roleName()
    {
        return "dta-data-plane";
    }

    /**
     * @return frames received on all input ports.
     */
    public long framesIn()
    {
        return framesIn;
    }

    /**
     * @return the engine clock at the last duty cycle.
     */
    public long lastNanos()
    {
        return lastNanos;
    }

    /**
     * @return the engine.
     */
    public TranslatorEngine engine()
    {
        return engine;
    }
}
