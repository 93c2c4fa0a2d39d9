package io.dta.appliance.engine;

import io.dta.collector.responder.SoftResponder;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link EngineHarness} whose Key-Write QP of collector A talks to a {@link SoftResponder} writing into memory,
 * over a link that can go down (every frame lost both ways) and into which stale or forged responses can be put.
 */
final class CollectorLoop
{
    final EngineHarness h;
    final UnsafeBuffer memory;
    final SoftResponder responder;
    boolean linkDown;

    CollectorLoop(final TestFrames.Cfg cfg)
    {
        h = new EngineHarness(cfg);
        final ApplianceConfig config = ConfigLoader.load(cfg.yaml());
        final RegionConfig region = config.collectors().get(0).keyWrite().region();
        memory = new UnsafeBuffer(new byte[(int)region.length()]);
        responder = new SoftResponder(config, (c, r) -> r == region ? memory : null);
    }

    /** Delivers what the engine sent and the answers back, 10 µs a round, until nothing moves. */
    void exchange()
    {
        exchange(1_000);
    }

    /** As {@link #exchange()}, at most {@code rounds} rounds. */
    void exchange(final int rounds)
    {
        for (int round = 0; round < rounds; round++)
        {
            final List<byte[]> responses = new ArrayList<>();
            final List<FrameCollector.Frame> frames = h.out.drain();
            for (final FrameCollector.Frame f : frames)
            {
                if (!linkDown)
                {
                    responder.onFrame(new UnsafeBuffer(f.bytes()), 0, f.bytes().length, h.now, (b, o, l) ->
                    {
                        final byte[] r = new byte[l];
                        b.getBytes(o, r);
                        responses.add(r);
                    });
                }
            }
            h.now += 10_000;
            for (final byte[] r : responses)
            {
                h.engine.onFrame(new UnsafeBuffer(r), 0, r.length, h.now);
            }
            h.engine.pollNow(h.now);
            if (frames.isEmpty() && responses.isEmpty() && h.engine.isQuiescent())
            {
                return;
            }
        }
    }

    /** Runs the clock for {@code nanos}, 10 µs a round, exchanging all the while. */
    void run(final long nanos)
    {
        final long end = h.now + nanos;
        while (h.now < end)
        {
            exchange(1);
        }
    }

    /** Feeds one report and lets it go out. */
    void report(final byte[] frame)
    {
        h.feed(frame);
        h.advance(TranslatorEngine.HOLD_NANOS);
    }

    /** @return whether the Key-Write region holds {@code value} in some slot's data word. */
    boolean holds(final int value)
    {
        for (int at = 0; at + 4 <= memory.capacity(); at += 4)
        {
            if (memory.getInt(at, ByteOrder.BIG_ENDIAN) == value)
            {
                return true;
            }
        }
        return false;
    }
}
