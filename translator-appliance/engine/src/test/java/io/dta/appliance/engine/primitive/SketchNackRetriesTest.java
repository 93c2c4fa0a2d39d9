package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.config.RegionConfig;
import io.dta.config.SketchConfig;
import io.dta.config.SketchType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The NACK policy of one sketch on its own: the rate limit on gap NACKs, the timer's backed-off retries and their
 * end, and the tail watch.
 */
class SketchNackRetriesTest
{
    private static final long RETRY = 10_000;
    private static final int COLUMNS = 8;
    private static final int SWITCHES = 2;

    private final List<String> sent = new ArrayList<>();
    private boolean outputFull;
    private final SketchNackSink sink = (mac, ip, tags, vlan, sketch, sw, epoch, column, now) ->
    {
        if (outputFull)
        {
            return false;
        }
        sent.add("switch " + sw + " epoch " + epoch + " column " + column + " at " + now + " to " + ip);
        return true;
    };
    private final EngineCounters counters = new EngineCounters();
    private final SketchConfig config = new SketchConfig(3, SketchType.COUNT_MIN, 2, COLUMNS, SWITCHES, 2, 2,
        1_000, RETRY / 1000, 2, new RegionConfig("collectors[0].sketches[0]", 0x600, 0x700, 0x1234, 0x10000,
        2 * (SketchConfig.EPOCH_HEADER_BYTES + 2 * COLUMNS * 4L), 0, 49152));
    private final SketchAreas areas = new SketchAreas(config);
    private final SketchNackRetries retries = new SketchNackRetries(config, areas, counters, sink);

    private int openSlot(final int switchId)
    {
        areas.open(1, 5, 0);
        retries.opened(1);
        return areas.firstSlot(1) + switchId;
    }

    @Test
    void shouldNackAGapOnceUntilProgressOrTheRearmTime()
    {
        final int slot = openSlot(1);
        assertTrue(retries.gap(slot, 3, 100), "the first gap is NACKed");
        assertFalse(retries.gap(slot, 4, 200), "not again right behind it");
        assertTrue(retries.gap(slot, 5, 100 + SketchMergeHandler.NACK_REARM_NANOS), "again after the re-arm time");
        areas.nextColumn[slot] = 1;
        assertTrue(retries.progress(slot, 0, 300), "column 0 opens the switch's progress: a tail watch is wanted");
        assertTrue(retries.gap(slot, 6, 400), "progress re-arms the NACK at once");
    }

    @Test
    void shouldRetryAGapWithBackOffAndGiveItUp()
    {
        final int slot = openSlot(0);
        assertTrue(retries.gap(slot, 4, 0));
        retries.armNackRetry(0xA, 0x0A000001, 0, 0, 0);
        assertEquals(1, retries.armed());
        assertEquals(RETRY, retries.nextRetryNanos());
        assertEquals(0, retries.poll(RETRY - 1));
        assertEquals(1, retries.poll(RETRY));
        assertEquals(List.of("switch 0 epoch 5 column 0 at " + RETRY + " to " + 0x0A000001), sent);
        // Backed off: the second retry two intervals after the first.
        assertEquals(RETRY + 2 * RETRY, retries.nextRetryNanos());
        outputFull = true;
        assertEquals(1, retries.poll(3 * RETRY));
        assertEquals(1, sent.size(), "the output could not take it: no retry used up");
        outputFull = false;
        assertEquals(1, retries.poll(3 * RETRY + 2 * RETRY));
        assertEquals(2, counters.get(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(1, retries.poll(5 * RETRY + 4 * RETRY));
        assertEquals(1, counters.get(EngineCounter.SKETCH_NACK_GAPS_ABANDONED), "given up after nackRetries");
        assertEquals(0, retries.armed());
    }

    @Test
    void shouldWatchATailAndNackASwitchThatStopsShort()
    {
        final int slot = openSlot(1);
        areas.nextColumn[slot] = 1;
        assertTrue(retries.progress(slot, 0, 1_000), "the switch's first column opens a tail watch");
        retries.watchTail(0xB, 0x0A000002, 0, 0, 1_000);
        // Looks fall on the grid of the interval: the first one at least one interval later.
        assertEquals(2 * RETRY, retries.nextRetryNanos());
        areas.nextColumn[slot] = 2;
        assertEquals(1, retries.poll(2 * RETRY));
        assertTrue(sent.isEmpty(), "progress since the watch began: looked again later");
        assertEquals(1, retries.poll(3 * RETRY));
        assertEquals(List.of("switch 1 epoch 5 column 2 at " + 3 * RETRY + " to " + 0x0A000002), sent);
        assertEquals(1, counters.get(EngineCounter.SKETCH_TAIL_NACKS));
        retries.closed(1);
        assertEquals(0, retries.armed(), "closing the epoch ends its retries");
    }
}
