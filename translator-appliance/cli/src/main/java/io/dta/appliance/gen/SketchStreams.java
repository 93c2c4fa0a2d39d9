package io.dta.appliance.gen;

import org.agrona.MutableDirectBuffer;

import java.util.SplittableRandom;

/**
 * The sketch streams still sending: each Sketch-Merge column comes from one of them, picked uniformly, and a stream
 * that has sent every epoch leaves; when the last one leaves, sketch leaves the mix.
 */
final class SketchStreams
{
    private final SplittableRandom random;
    private final SketchTraffic[] traffic;
    private final ReportWriter writer;
    private final PrimitiveMix mix;
    private final int[] active;
    private int activeCount;

    /**
     * @param random  the generator's random source.
     * @param traffic every selected sketch's stream.
     * @param writer  the frame writer.
     * @param mix     the mix sketch leaves once every stream ended.
     */
    SketchStreams(
        final SplittableRandom random, final SketchTraffic[] traffic, final ReportWriter writer, final PrimitiveMix mix)
    {
        this.random = random;
        this.traffic = traffic;
        this.writer = writer;
        this.mix = mix;
        active = new int[traffic.length];
        for (int i = 0; i < traffic.length; i++)
        {
            if (!traffic[i].done())
            {
                active[activeCount++] = i;
            }
        }
        if (mix.has(Primitive.SKETCH) && 0 == activeCount)
        {
            mix.drop(Primitive.SKETCH);
        }
    }

    /**
     * A Sketch-Merge column: the next one of a sketch stream still sending (picked uniformly), or, for a
     * truncated report, a stray column with random counters that leaves every stream alone.
     *
     * @return the payload's length (base header and body).
     */
    int write(final MutableDirectBuffer dst, final int offset, final boolean fromStream)
    {
        final SketchTraffic stream;
        final int switchId;
        final long epoch;
        final int column;
        if (fromStream)
        {
            final int slot = activeCount == 1 ? 0 : random.nextInt(activeCount);
            stream = traffic[active[slot]];
            stream.advance(random);
            switchId = stream.switchId();
            epoch = stream.epoch();
            column = stream.column();
            if (stream.done())
            {
                active[slot] = active[--activeCount];
                if (0 == activeCount)
                {
                    mix.drop(Primitive.SKETCH);
                }
            }
        }
        else
        {
            stream = traffic[traffic.length == 1 ? 0 : random.nextInt(traffic.length)];
            switchId = random.nextInt(stream.switches());
            epoch = random.nextInt() & 0xFFFF_FFFFL;
            column = random.nextInt(stream.sketch().columns());
        }
        return writer.sketchColumn(dst, offset, stream, switchId, epoch, column, fromStream);
    }
}
