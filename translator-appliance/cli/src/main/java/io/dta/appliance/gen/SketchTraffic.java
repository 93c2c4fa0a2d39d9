package io.dta.appliance.gen;

import io.dta.codec.KeyHash;
import io.dta.collector.layout.SketchLayout;
import io.dta.config.SketchConfig;
import io.dta.config.SketchType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The Sketch-Merge traffic of one configured sketch: for each epoch, every switch builds a real sketch of the
 * configured type and shape from its own synthetic key stream, then sends its columns in order; the switches'
 * columns interleave at random. Optional faults:
 * <ul>
 *     <li>gaps: before column c (not the last), a switch skips it, sends up to {@value #MAX_AHEAD} later columns
 *     (which the translator NACKs and drops), then restarts from c as it would on receiving the NACK;</li>
 *     <li>duplicates: after a column, the switch sends the same column again (the translator ignores it);</li>
 *     <li>missing switch: in the last epoch, the last switch stops after half its columns (the epoch stays
 *     incomplete).</li>
 * </ul>
 * Epochs follow one another: epoch e + 1 starts when every switch finished epoch e. The key stream of switch s in
 * epoch e has its own {@link SplittableRandom}, seeded from the generator seed, the sketch and s and e, so the
 * sketches do not depend on the interleaving. Interleaving and faults are drawn from the random passed to
 * {@link #advance(SplittableRandom)}.
 * <p>
 * With truth recording on, each finished epoch leaves a {@link EpochTruth}: the element-wise merge (sum, or max for
 * HyperLogLog) of the columns each switch sent in order, and the true key counts. Not thread-safe.
 */
public final class SketchTraffic
{
    /** Most columns a switch sends past a gap before restarting from the skipped column. */
    public static final int MAX_AHEAD = 3;

    /**
     * What one epoch really was.
     *
     * @param epoch        the epoch.
     * @param complete     every switch sent every column.
     * @param contributors switches that sent every column.
     * @param sentColumns  per switch, how many leading columns it sent in order (columns + duplicates aside).
     * @param merged       element-wise merge over what was sent in order, column-major like collector memory.
     * @param items        items (key occurrences) of all switches' streams.
     * @param keyCounts    true count per key over all switches' streams (empty for HyperLogLog).
     * @param distinct     distinct keys over all switches' streams.
     */
    public record EpochTruth(long epoch, boolean complete, int[] contributors, int[] sentColumns, int[] merged,
        long items, TreeMap<Long, Long> keyCounts, long distinct)
    {
    }

    private final SketchConfig sketch;
    private final int collectorIndex;
    private final int switches;
    private final int epochs;
    private final long firstEpoch;
    private final long items;
    private final KeyDistribution distribution;
    private final long keySpace;
    private final ZipfSampler zipf;
    private final long seed;
    private final double gapFraction;
    private final double duplicateFraction;
    private final boolean missingSwitch;
    private final boolean recordTruth;
    private final KeyHash hash = new KeyHash();

    private final int rows;
    private final int columns;
    private final int[][] cells;
    private final int[] next;
    private final int[] end;
    private final int[] aheadNext;
    private final int[] aheadEnd;
    private final int[] resumeAt;
    private final int[] duplicatePending;
    private final boolean[] noGapNext;
    private final int[] active;
    private int activeCount;
    private int epochIndex = -1;
    private final List<EpochTruth> truth = new ArrayList<>();
    private final TreeMap<Long, Long> keyCounts = new TreeMap<>();
    private long distinctSeen;

    private final int[] lastCounters;
    private long lastEpoch = -1;
    private int lastSwitch = -1;
    private int lastColumn = -1;
    private boolean lastAhead;
    private boolean lastDuplicate;
    private long frames;
    private long gaps;
    private long aheadFrames;
    private long duplicates;

    /**
     * @param sketch            the configured sketch.
     * @param collectorIndex    index of its collector among the generator's selected ones (part of the seed).
     * @param switches          reporting switches, 1..256.
     * @param epochs            epochs to send, at least 1.
     * @param firstEpoch        number of the first epoch (u32; later epochs count up, wrapping).
     * @param items             items per switch and epoch.
     * @param distribution      key distribution.
     * @param keySpace          keys 0..keySpace − 1.
     * @param zipfExponent      Zipf exponent (for {@link KeyDistribution#ZIPF}).
     * @param seed              generator seed.
     * @param gapFraction       per column, chance of a gap.
     * @param duplicateFraction per column, chance of a duplicate.
     * @param missingSwitch     last switch stops halfway in the last epoch.
     * @param recordTruth       keep {@link EpochTruth} per epoch.
     */
    public SketchTraffic(final SketchConfig sketch, final int collectorIndex, final int switches, final int epochs,
        final long firstEpoch, final long items, final KeyDistribution distribution, final long keySpace,
        final double zipfExponent, final long seed, final double gapFraction, final double duplicateFraction,
        final boolean missingSwitch, final boolean recordTruth)
    {
        this.sketch = sketch;
        this.collectorIndex = collectorIndex;
        this.switches = switches;
        this.epochs = epochs;
        this.firstEpoch = firstEpoch & 0xFFFF_FFFFL;
        this.items = items;
        this.distribution = distribution;
        this.keySpace = keySpace;
        this.zipf = distribution == KeyDistribution.ZIPF ? new ZipfSampler(keySpace, zipfExponent) : null;
        this.seed = seed;
        this.gapFraction = gapFraction;
        this.duplicateFraction = duplicateFraction;
        this.missingSwitch = missingSwitch;
        this.recordTruth = recordTruth;
        this.rows = sketch.rows();
        this.columns = sketch.columns();
        this.cells = new int[switches][rows * columns];
        this.next = new int[switches];
        this.end = new int[switches];
        this.aheadNext = new int[switches];
        this.aheadEnd = new int[switches];
        this.resumeAt = new int[switches];
        this.duplicatePending = new int[switches];
        this.noGapNext = new boolean[switches];
        this.active = new int[switches];
        this.lastCounters = new int[rows];
        startEpoch();
    }

    /**
     * Adds one key occurrence to a sketch held column-major ({@code cells[c * rows + r]}), with the hashes of
     * {@link SketchLayout}: Count-Min +1 in each row's column, Count sketch ±1 (the row's sign), HyperLogLog the
     * register's maximum with the rank.
     *
     * @param type    sketch kind.
     * @param rows    rows.
     * @param columns columns, a power of two.
     * @param cells   the sketch.
     * @param key     the key (u32).
     * @param hash    a key hash.
     */
    public static void add(final SketchType type, final int rows, final int columns, final int[] cells,
        final long key, final KeyHash hash)
    {
        switch (type)
        {
            case COUNT_MIN:
                for (int r = 0; r < rows; r++)
                {
                    cells[SketchLayout.column(hash, key, r, columns) * rows + r]++;
                }
                break;
            case COUNT_SKETCH:
                for (int r = 0; r < rows; r++)
                {
                    cells[SketchLayout.column(hash, key, r, columns) * rows + r] += SketchLayout.sign(hash, key, r);
                }
                break;
            default:
                final long h = SketchLayout.hllHash(hash, key);
                final int register = SketchLayout.hllRegister(h, columns);
                cells[register] = Math.max(cells[register], SketchLayout.hllRank(h, columns));
                break;
        }
    }

    /**
     * The seed of a switch's key stream in an epoch.
     *
     * @param seed           generator seed.
     * @param collectorIndex collector index.
     * @param sketchId       sketch id.
     * @param switchId       switch.
     * @param epoch          epoch.
     * @return the stream's seed.
     */
    public static long streamSeed(final long seed, final int collectorIndex, final long sketchId,
        final int switchId, final long epoch)
    {
        long s = seed;
        s = new SplittableRandom(s ^ 0x5EED_5EED_0000_0000L ^ collectorIndex).nextLong();
        s = new SplittableRandom(s ^ sketchId).nextLong();
        s = new SplittableRandom(s ^ switchId).nextLong();
        return new SplittableRandom(s ^ epoch).nextLong();
    }

    /**
     * The flow key of the key with index {@code index} in the key space: a fixed bijection of the 32-bit keys
     * (MurmurHash3's finalizer), so that sketch keys look like the hashed flow IDs switches see. The sketch hashes
     * are CRC32s, which are linear: dense small integers (0, 1, 2 ...) fall into registers far more evenly than
     * random keys would, and HyperLogLog, whose estimator assumes random hashes, then overestimates (by up to
     * 2x for a few thousand consecutive keys).
     *
     * @param index key index, 0..2^32-1.
     * @return the flow key, 0..2^32-1; distinct indexes give distinct keys.
     */
    public static long flowKey(final long index)
    {
        int h = (int)index;
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return h & 0xFFFF_FFFFL;
    }

    /**
     * Builds the sketch switch {@code switchId} sends in an epoch; the same function {@link SketchTraffic} uses,
     * public so tests and tools can rebuild what a capture carries.
     *
     * @param sketch         the sketch.
     * @param collectorIndex collector index.
     * @param switchId       switch.
     * @param epoch          epoch.
     * @param items          items.
     * @param keys           the key stream (receives each key in order; may be null).
     * @param distribution   key distribution.
     * @param keySpace       key space.
     * @param zipf           sampler for ZIPF, else null.
     * @param seed           generator seed.
     * @param cells          the sketch to fill (zeroed first), column-major.
     */
    public static void buildSwitchSketch(final SketchConfig sketch, final int collectorIndex, final int switchId,
        final long epoch, final long items, final java.util.function.LongConsumer keys,
        final KeyDistribution distribution, final long keySpace, final ZipfSampler zipf, final long seed,
        final int[] cells)
    {
        java.util.Arrays.fill(cells, 0);
        final KeyHash hash = new KeyHash();
        final SplittableRandom random = new SplittableRandom(
            streamSeed(seed, collectorIndex, sketch.id(), switchId, epoch));
        for (long i = 0; i < items; i++)
        {
            final long key = flowKey(switch (distribution)
            {
                case SEQUENTIAL -> i % keySpace;
                case ZIPF -> zipf.sample(random) - 1;
                default -> random.nextLong(keySpace);
            });
            add(sketch.type(), sketch.rows(), sketch.columns(), cells, key, hash);
            if (null != keys)
            {
                keys.accept(key);
            }
        }
    }

    private long epochNumber(final int index)
    {
        return (firstEpoch + index) & 0xFFFF_FFFFL;
    }

    private void startEpoch()
    {
        if (recordTruth && epochIndex >= 0)
        {
            recordTruth();
        }
        epochIndex++;
        if (epochIndex >= epochs)
        {
            activeCount = 0;
            return;
        }
        keyCounts.clear();
        distinctSeen = 0;
        final long epoch = epochNumber(epochIndex);
        final boolean countKeys = recordTruth;
        for (int s = 0; s < switches; s++)
        {
            buildSwitchSketch(sketch, collectorIndex, s, epoch, items, countKeys ? k -> keyCounts.merge(k, 1L,
                Long::sum) : null, distribution, keySpace, zipf, seed, cells[s]);
            next[s] = 0;
            end[s] = missingSwitch && epochIndex == epochs - 1 && s == switches - 1 ? columns / 2 : columns;
            aheadNext[s] = 0;
            aheadEnd[s] = -1;
            resumeAt[s] = -1;
            duplicatePending[s] = -1;
            noGapNext[s] = false;
        }
        activeCount = 0;
        for (int s = 0; s < switches; s++)
        {
            if (end[s] > 0)
            {
                active[activeCount++] = s;
            }
        }
        if (0 == activeCount)
        {
            startEpoch();
        }
    }

    private void recordTruth()
    {
        final int[] merged = new int[rows * columns];
        final List<Integer> contributors = new ArrayList<>();
        final int[] sent = new int[switches];
        for (int s = 0; s < switches; s++)
        {
            sent[s] = end[s];
            if (end[s] == columns)
            {
                contributors.add(s);
            }
            for (int i = 0, n = end[s] * rows; i < n; i++)
            {
                merged[i] = sketch.type() == SketchType.HYPERLOGLOG ? Math.max(merged[i], cells[s][i]) :
                    merged[i] + cells[s][i];
            }
        }
        final TreeMap<Long, Long> counts = sketch.type() == SketchType.HYPERLOGLOG ? new TreeMap<>() :
            new TreeMap<>(keyCounts);
        truth.add(new EpochTruth(epochNumber(epochIndex), contributors.size() == switches,
            contributors.stream().mapToInt(Integer::intValue).toArray(), sent, merged, items * switches, counts,
            keyCounts.size()));
    }

    /**
     * @return true when every epoch has been sent.
     */
    public boolean done()
    {
        return activeCount == 0;
    }

    /**
     * Picks the next column to send: a random switch with something left, its pending duplicate, its next
     * column past a gap, or its next column in order (possibly starting a gap).
     *
     * @param random the generator's random (interleaving and faults).
     */
    public void advance(final SplittableRandom random)
    {
        if (done())
        {
            throw new IllegalStateException("sketch " + sketch.id() + ": every epoch has been sent");
        }
        final int slot = activeCount == 1 ? 0 : random.nextInt(activeCount);
        final int s = active[slot];
        lastSwitch = s;
        lastAhead = false;
        lastDuplicate = false;
        if (duplicatePending[s] >= 0)
        {
            lastColumn = duplicatePending[s];
            duplicatePending[s] = -1;
            lastDuplicate = true;
            duplicates++;
        }
        else if (aheadNext[s] <= aheadEnd[s])
        {
            sendAhead(s);
        }
        else
        {
            nextInOrder(s, random);
        }
        frames++;
        lastEpoch = epochNumber(epochIndex);
        // Copied now: the switch's sketch is rebuilt in place when this was the epoch's last column.
        System.arraycopy(cells[s], lastColumn * rows, lastCounters, 0, rows);
        if (next[s] >= end[s] && aheadNext[s] > aheadEnd[s] && duplicatePending[s] < 0)
        {
            active[slot] = active[--activeCount];
            if (0 == activeCount)
            {
                startEpoch();
            }
        }
    }

    /**
     * Switch {@code s}'s next column past its gap; after the last of them it goes back to the column it skipped.
     */
    private void sendAhead(final int s)
    {
        lastColumn = aheadNext[s]++;
        lastAhead = true;
        aheadFrames++;
        if (aheadNext[s] > aheadEnd[s])
        {
            next[s] = resumeAt[s];
            noGapNext[s] = true;
        }
    }

    /**
     * Switch {@code s}'s next column in order, or, at the gap fraction, a gap: the next few columns first, this one
     * once they are sent; and at the duplicate fraction, a copy of it to send next.
     */
    private void nextInOrder(final int s, final SplittableRandom random)
    {
        final int c = next[s];
        if (!noGapNext[s] && gapFraction > 0.0 && c + 1 < end[s] && random.nextDouble() < gapFraction)
        {
            gaps++;
            resumeAt[s] = c;
            aheadNext[s] = c + 1;
            aheadEnd[s] = Math.min(end[s] - 1, c + 1 + random.nextInt(MAX_AHEAD));
            sendAhead(s);
        }
        else
        {
            lastColumn = c;
            next[s] = c + 1;
            noGapNext[s] = false;
            if (duplicateFraction > 0.0 && random.nextDouble() < duplicateFraction)
            {
                duplicatePending[s] = c;
            }
        }
    }

    /**
     * @param row a row.
     * @return the counter of the column just picked, in that row (raw 32 bits).
     */
    public int counter(final int row)
    {
        return lastCounters[row];
    }

    /**
     * @return the configured sketch.
     */
    public SketchConfig sketch()
    {
        return sketch;
    }

    /**
     * @return index of the sketch's collector among the generator's selected collectors.
     */
    public int collectorIndex()
    {
        return collectorIndex;
    }

    /**
     * @return switches sending.
     */
    public int switches()
    {
        return switches;
    }

    /**
     * @return switch of the column just picked.
     */
    public int switchId()
    {
        return lastSwitch;
    }

    /**
     * @return epoch of the column just picked.
     */
    public long epoch()
    {
        return lastEpoch;
    }

    /**
     * @return the column just picked.
     */
    public int column()
    {
        return lastColumn;
    }

    /**
     * @return true when the column just picked is past a gap (the translator NACKs and drops it).
     */
    public boolean ahead()
    {
        return lastAhead;
    }

    /**
     * @return true when the column just picked is a duplicate.
     */
    public boolean duplicate()
    {
        return lastDuplicate;
    }

    /**
     * @return columns sent so far, gap and duplicate frames included.
     */
    public long frames()
    {
        return frames;
    }

    /**
     * @return gaps taken.
     */
    public long gaps()
    {
        return gaps;
    }

    /**
     * @return columns sent past a gap.
     */
    public long aheadFrames()
    {
        return aheadFrames;
    }

    /**
     * @return duplicate columns sent.
     */
    public long duplicates()
    {
        return duplicates;
    }

    /**
     * @return the epochs finished so far (only with truth recording), oldest first.
     */
    public List<EpochTruth> truth()
    {
        return Collections.unmodifiableList(truth);
    }

    /**
     * @return the number of frames without gaps or duplicates: switches × epochs × columns (less for a missing
     * switch).
     */
    public long plainFrames()
    {
        final long full = (long)switches * epochs * columns;
        return missingSwitch ? full - (columns - columns / 2) : full;
    }
}
