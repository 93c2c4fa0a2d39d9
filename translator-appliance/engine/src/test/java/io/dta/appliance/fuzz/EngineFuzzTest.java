package io.dta.appliance.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigLoader;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Coverage-guided fuzzing of {@link TranslatorEngine#onFrame} on the embedded configuration (every primitive): as
 * reports, and as the collector's responses after a prelude of real reports has put operations in flight (so ACKs,
 * NAKs and ATOMIC ACKs meet QPs with PSNs outstanding), with the clock moving and the timers running between frames.
 * Whatever the bytes, no exception escapes, and every frame is counted in {@code FRAMES_IN} and under exactly one
 * outcome: translated, skipped as another protocol, accepted as a response, or dropped under one named reason. A
 * normal build replays the corpus under {@code src/test/resources/io/dta/appliance/fuzz/EngineFuzzTestInputs}
 * (seeded from the vectors and from {@code dta gen}, {@code dta replay} and {@code dta collector} captures);
 * {@code JAZZER_FUZZ=1} fuzzes (docs/fuzzing.md).
 */
class EngineFuzzTest
{
    /** What a frame can come to: exactly one of these per frame. */
    static final Set<EngineCounter> OUTCOMES = outcomes();
    private static final ApplianceConfig CONFIG = ConfigLoader.load(ConfigDefaults.yaml()
        .replace("backlog: 16384", "backlog: 256"));
    /** What the engine sends is not looked at: one sink, its frames dropped, serves every input. */
    private static final FrameSink SINK = new DiscardingSink();
    private static final List<byte[]> PRELUDE = new ArrayList<>();
    private static final List<Long> PRELUDE_TIMES = new ArrayList<>();

    static
    {
        try (PcapReader reader = PcapReader.open(resource("engine-prelude-reports.pcap")))
        {
            while (reader.next())
            {
                final byte[] frame = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), frame);
                PRELUDE.add(frame);
                PRELUDE_TIMES.add(reader.timestampNanos());
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void reports(final byte[] input)
    {
        final TranslatorEngine engine = new TranslatorEngine(CONFIG, SINK, true);
        feed(engine, input, PRELUDE_TIMES.getFirst());
    }

    @FuzzTest(maxDuration = "10s")
    void responses(final byte[] input)
    {
        final TranslatorEngine engine = new TranslatorEngine(CONFIG, SINK, true);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);
        for (int i = 0; i < PRELUDE.size(); i++)
        {
            buffer.wrap(PRELUDE.get(i));
            engine.pollNow(PRELUDE_TIMES.get(i));
            engine.onFrame(buffer, 0, buffer.capacity(), PRELUDE_TIMES.get(i));
        }
        feed(engine, input, PRELUDE_TIMES.getLast());
    }

    private static void feed(final TranslatorEngine engine, final byte[] input, final long startNanos)
    {
        long now = startNanos;
        final FuzzFrames frames = new FuzzFrames(input);
        final long[] before = new long[EngineCounter.values().length];
        while (frames.next())
        {
            now += frames.advanceNanos();
            engine.pollNow(now);
            snapshot(engine, before);
            engine.onFrame(frames.frame(), 0, frames.length(), now);
            checkOneOutcome(engine, before);
        }
        engine.finish(now + 1_000_000_000L);
    }

    private static void snapshot(final TranslatorEngine engine, final long[] into)
    {
        for (final EngineCounter c : EngineCounter.values())
        {
            into[c.ordinal()] = engine.counters().get(c);
        }
    }

    private static void checkOneOutcome(final TranslatorEngine engine, final long[] before)
    {
        assertEquals(before[EngineCounter.FRAMES_IN.ordinal()] + 1, engine.counters().get(EngineCounter.FRAMES_IN));
        long outcomes = 0;
        final StringBuilder which = new StringBuilder();
        for (final EngineCounter c : OUTCOMES)
        {
            final long delta = engine.counters().get(c) - before[c.ordinal()];
            if (0 != delta)
            {
                outcomes += delta;
                which.append(' ').append(c).append(" +").append(delta);
            }
        }
        assertEquals(1, outcomes, "one outcome per frame, counted:" + which);
    }

    private static Set<EngineCounter> outcomes()
    {
        final Set<EngineCounter> outcomes = EnumSet.of(EngineCounter.REPORTS_TRANSLATED, EngineCounter.OTHER_FRAMES,
            EngineCounter.ACKS_IN, EngineCounter.ATOMIC_ACKS_IN, EngineCounter.NAK_SEQUENCE_ERRORS_IN,
            EngineCounter.NAK_FATAL_IN, EngineCounter.NAK_RNR_IN);
        for (final EngineCounter c : EngineCounter.values())
        {
            if (c.isDrop())
            {
                outcomes.add(c);
            }
        }
        // What happens later to a translated report's operations (grace period, QP in error, a full backlog, queue
        // or transmit ring) is counted beside REPORTS_TRANSLATED, not instead of it.
        outcomes.removeAll(EnumSet.of(EngineCounter.DROP_GRACE_PERIOD, EngineCounter.DROP_QP_ERROR,
            EngineCounter.DROP_BACKLOG_FULL, EngineCounter.DROP_ATOMIC_QUEUE_FULL, EngineCounter.DROP_TX_FULL));
        return outcomes;
    }

    static Path resource(final String name)
    {
        try
        {
            return Path.of(EngineFuzzTest.class.getResource(name).toURI());
        }
        catch (final URISyntaxException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static final class DiscardingSink implements FrameSink
    {
        private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1 << 16]);

        @Override
        public MutableDirectBuffer buffer()
        {
            return buffer;
        }

        @Override
        public int claim(final int maxLength)
        {
            return 0;
        }

        @Override
        public SendOutcome commit(
            final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
        {
            return SendOutcome.SENT;
        }
    }
}
