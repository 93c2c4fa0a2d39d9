package io.dta.appliance.bench;

import io.dta.appliance.engine.EngineCounter;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link UnequalWork#of}: when the Java engine and the C loop did unequal work with the same frames, from their
 * counts over the rounds (the numbers of runs of {@code dta bench --io dpdk --compare-c --in}).
 */
class DpdkBenchUnequalWorkTest
{
    private static final long FRAMES = 160_722;

    @Test
    void shouldFindNothingUnequalWhenTheDropsAreTheCLoopsDropsAndMalformedFrames()
    {
        // dta gen --bad 0.05: the engine's 11 754 drops are the C loop's 7104 drops and 4650 malformed frames, and
        // the frames out differ by a few held frames.
        final DpdkBench.Result java = java(FRAMES, FRAMES, 295_081, Map.of(EngineCounter.DROP_TRUNCATED, 2394L,
            EngineCounter.DROP_UNKNOWN_OPCODE, 2256L, EngineCounter.DROP_NO_ROUTE, 2355L,
            EngineCounter.DROP_BAD_REDUNDANCY, 4749L));
        assertEquals(Map.of(), UnequalWork.of(java, reference(FRAMES, 7104, 4650, 0, 0, 295_031)));
    }

    @Test
    void shouldSayTheCaptureHoldsResponsesAndTheReportsDroppedAfterTranslation()
    {
        // A capture with the same reportsTranslated on both sides, 722 responses the C loop skipped, reports
        // the engine dropped in grace periods after its NAK resyncs.
        final DpdkBench.Result java = java(FRAMES, 160_000, 309_678, Map.of(EngineCounter.NAK_SEQUENCE_ERRORS_IN, 3L,
            EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW, 706L, EngineCounter.DROP_GRACE_PERIOD, 123L));
        final Map<String, String> reasons = UnequalWork.of(java, reference(160_000, 0, 0, 0, 722, 309_826));
        assertEquals(List.of("responses", "droppedAfterTranslation"), List.copyOf(reasons.keySet()), reasons.toString());
        assertEquals("the frames hold 722 collector responses, which the engine acts on (NAK resyncs, grace periods) " +
            "and the C loop skips", reasons.get("responses"));
        assertEquals("the engine dropped 123 of the reports it translated (dropGracePeriod 123), which " +
            "reportsTranslated counts", reasons.get("droppedAfterTranslation"));
    }

    @Test
    void shouldSayWhenDropsOrFramesOutDifferBeyondTheirTolerance()
    {
        final DpdkBench.Result java = java(FRAMES, FRAMES, 300_000, Map.of(EngineCounter.DROP_NO_ROUTE, 1000L));
        assertEquals(Map.of(), UnequalWork.of(java, reference(FRAMES, 900, 0, 0, 0, 297_500)));
        assertEquals(List.of("dropsDiffer"), List.copyOf(UnequalWork.of(java,
            reference(FRAMES, 800, 0, 0, 0, 300_000)).keySet()));
        assertEquals(List.of("roceFramesOutDiffer"), List.copyOf(UnequalWork.of(java,
            reference(FRAMES, 1000, 0, 0, 0, 296_000)).keySet()));
        assertEquals(List.of("unsupportedReports", "fewerTranslated"), List.copyOf(UnequalWork.of(java,
            reference(FRAMES - 5000, 1000, 0, 5000, 0, 300_000)).keySet()));
    }

    private static DpdkBench.Result java(
        final long framesIn, final long translated, final long framesOut, final Map<EngineCounter, Long> more)
    {
        final long[] counters = new long[EngineCounter.values().length];
        counters[EngineCounter.FRAMES_IN.ordinal()] = framesIn;
        counters[EngineCounter.REPORTS_TRANSLATED.ordinal()] = translated;
        counters[EngineCounter.ROCE_FRAMES_OUT.ordinal()] = framesOut;
        more.forEach((c, n) -> counters[c.ordinal()] = n);
        return new DpdkBench.Result(framesIn, framesOut, 1, framesIn, framesOut, framesIn, 0, 0, 0, 0, 0, -1,
            framesIn, counters);
    }

    private static DpdkBench.ReferenceCounts reference(
        final long translated, final long drops, final long malformed, final long unsupported, final long responses,
        final long framesOut)
    {
        return new DpdkBench.ReferenceCounts(FRAMES, FRAMES - responses, translated, drops, unsupported, 0, malformed,
            responses, framesOut);
    }
}
