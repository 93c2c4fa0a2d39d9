package io.dta.appliance.engine;

import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * A {@link TranslatorEngine} on the test configuration with a {@link FrameCollector} and an explicit clock.
 */
public final class EngineHarness
{
    /** The engine under test. */
    public final TranslatorEngine engine;
    /** What it sent. */
    public final FrameCollector out = new FrameCollector();
    /** Engine clock in nanoseconds. */
    public long now = 1_000_000;

    /**
     * @param cfg test configuration tunables.
     */
    public EngineHarness(final TestFrames.Cfg cfg)
    {
        engine = new TranslatorEngine(ConfigLoader.load(cfg.yaml()), out);
    }

    /**
     * Feeds a frame at the current clock, after running the timers.
     *
     * @param frame the frame.
     * @return this.
     */
    public EngineHarness feed(final byte[] frame)
    {
        engine.pollNow(now);
        engine.onFrame(new UnsafeBuffer(frame), 0, frame.length, now);
        return this;
    }

    /**
     * Advances the clock and runs the timers.
     *
     * @param nanos how far.
     * @return this.
     */
    public EngineHarness advance(final long nanos)
    {
        now += nanos;
        engine.pollNow(now);
        return this;
    }

    /**
     * @param counter a counter.
     * @return its value.
     */
    public long count(final EngineCounter counter)
    {
        return engine.counters().get(counter);
    }

    /**
     * @param localQpn local QPN.
     * @return its sender.
     */
    public QueuePairSender sender(final int localQpn)
    {
        for (final QueuePairSender s : engine.senders())
        {
            if (s.path().localQpn() == localQpn)
            {
                return s;
            }
        }
        throw new IllegalArgumentException("no QP " + localQpn);
    }

    /**
     * Lets every held frame go out (idle release) and returns what was sent since the last drain.
     *
     * @return the requests.
     */
    public List<TestFrames.Request> settle()
    {
        advance(TranslatorEngine.HOLD_NANOS);
        return out.drainRequests();
    }
}
