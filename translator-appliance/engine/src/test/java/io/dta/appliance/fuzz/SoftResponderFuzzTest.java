package io.dta.appliance.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.dta.collector.responder.ResponderCounter;
import io.dta.collector.responder.SoftResponder;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.RegionConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Coverage-guided fuzzing of the soft collector's {@link SoftResponder#onFrame} on the embedded configuration (every
 * kind of region), each region's memory lying between guard bytes: whatever the frames, no exception escapes, every
 * frame is counted in {@code frames-in} and under exactly one outcome, and no byte outside a region is ever written.
 * A normal build replays the corpus under {@code src/test/resources/io/dta/appliance/fuzz/SoftResponderFuzzTestInputs}
 * (seeded from the vectors and a {@code dta replay} capture); {@code JAZZER_FUZZ=1} fuzzes (docs/fuzzing.md).
 */
class SoftResponderFuzzTest
{
    /** What a frame can come to: exactly one of these per frame. */
    static final Set<ResponderCounter> OUTCOMES = EnumSet.of(
        ResponderCounter.NOT_ROCE, ResponderCounter.MALFORMED, ResponderCounter.BAD_CHECKSUM, ResponderCounter.BAD_TVER,
        ResponderCounter.BAD_ICRC, ResponderCounter.NON_RC_OPCODE, ResponderCounter.UNEXPECTED_OPCODE,
        ResponderCounter.UNKNOWN_QPN, ResponderCounter.BAD_IP_DST, ResponderCounter.BAD_IP_SRC,
        ResponderCounter.BAD_PKEY, ResponderCounter.QP_ERROR_DROPS, ResponderCounter.NOT_CONNECTED,
        ResponderCounter.TIME_WAIT_DROPS, ResponderCounter.OUT_OF_SEQUENCE_NAKED,
        ResponderCounter.OUT_OF_SEQUENCE_DROPPED, ResponderCounter.DUPLICATES, ResponderCounter.INVALID_REQUESTS,
        ResponderCounter.REMOTE_ACCESS_ERRORS, ResponderCounter.RNR_NAKS, ResponderCounter.WRITE_PACKETS,
        ResponderCounter.ATOMICS, ResponderCounter.CM_MADS_IN, ResponderCounter.METADATA_ACKED,
        ResponderCounter.STALE_ACKS);
    private static final ApplianceConfig CONFIG = ConfigDefaults.load();
    private static final int GUARD = 256;
    private static final byte GUARD_BYTE = (byte)0xC5;
    private static final Map<RegionConfig, byte[]> MEMORIES = new HashMap<>();

    @FuzzTest(maxDuration = "10s")
    void requests(final byte[] input)
    {
        final SoftResponder responder = new SoftResponder(CONFIG, (collector, region) -> guarded(region));
        long now = 1_704_067_200_000_000_000L;
        final FuzzFrames frames = new FuzzFrames(input);
        final long[] before = new long[ResponderCounter.values().length];
        while (frames.next())
        {
            now += frames.advanceNanos();
            responder.poll(now, (buffer, offset, length) -> { });
            for (final ResponderCounter c : ResponderCounter.values())
            {
                before[c.ordinal()] = responder.counter(c);
            }
            responder.onFrame(frames.frame(), 0, frames.length(), now, (buffer, offset, length) -> { });
            checkOneOutcome(responder, before);
        }
        for (final Map.Entry<RegionConfig, byte[]> e : MEMORIES.entrySet())
        {
            checkGuards(e.getKey(), e.getValue());
        }
    }

    /** Each region's memory between its guards, made once and laid anew for every input. */
    private static UnsafeBuffer guarded(final RegionConfig region)
    {
        final int length = (int)region.length();
        final byte[] memory = MEMORIES.computeIfAbsent(region, r -> new byte[GUARD + length + GUARD]);
        Arrays.fill(memory, 0, GUARD, GUARD_BYTE);
        Arrays.fill(memory, GUARD, GUARD + length, (byte)0);
        Arrays.fill(memory, GUARD + length, memory.length, GUARD_BYTE);
        return new UnsafeBuffer(memory, GUARD, length);
    }

    private static void checkGuards(final RegionConfig region, final byte[] memory)
    {
        for (int i = 0; i < memory.length; i++)
        {
            if ((i < GUARD || i >= memory.length - GUARD) && GUARD_BYTE != memory[i])
            {
                fail("a write outside region " + region.path() + " at " + (i < GUARD ? "-" + (GUARD - i) : "+" +
                    (i - (memory.length - GUARD))) + " bytes from its " + (i < GUARD ? "start" : "end"));
            }
        }
    }

    private static void checkOneOutcome(final SoftResponder responder, final long[] before)
    {
        assertEquals(before[ResponderCounter.FRAMES_IN.ordinal()] + 1, responder.counter(ResponderCounter.FRAMES_IN));
        long outcomes = 0;
        final StringBuilder which = new StringBuilder();
        for (final ResponderCounter c : OUTCOMES)
        {
            final long delta = responder.counter(c) - before[c.ordinal()];
            if (0 != delta)
            {
                outcomes += delta;
                which.append(' ').append(c.label()).append(" +").append(delta);
            }
        }
        assertEquals(1, outcomes, "one outcome per frame, counted:" + which);
    }
}
