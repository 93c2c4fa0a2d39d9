package io.dta.appliance.gen;

import org.agrona.MutableDirectBuffer;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Invalid reports ({@code --bad}), of a kind drawn uniformly from those the selected collectors make possible: an
 * unknown opcode, a redundancy N of 0 or above {@code redundancy.max} (only with a Key-Write or Key-Increment
 * store), a valid report truncated, an Append to a list the configuration does not have.
 */
final class BadReports
{
    /**
     * Writes a valid report of a primitive (the frame a truncated report is cut from).
     */
    @FunctionalInterface
    interface ValidWriter
    {
        /**
         * @param dst          destination buffer.
         * @param offset       where the frame starts.
         * @param primitive    the report's primitive.
         * @param continueFlow whether a postcard or sketch column continues its flow or stream.
         * @return the payload's length (base header and body).
         */
        int write(MutableDirectBuffer dst, int offset, Primitive primitive, boolean continueFlow);
    }

    private final SplittableRandom random;
    private final int configRedundancyMax;
    private final GeneratorTargets targets;
    private final TrafficShape shape;
    private final ReportWriter writer;
    private final PrimitiveMix mix;
    private final ValidWriter valid;
    private final BadKind[] kinds;

    /**
     * @param random              the generator's random source.
     * @param configRedundancyMax {@code redundancy.max}.
     * @param targets             the selected collectors.
     * @param shape               keys, reporters.
     * @param writer              the frame writer.
     * @param mix                 the primitives a truncated report is drawn from.
     * @param valid               writes the valid report a truncated one is cut from.
     */
    BadReports(
        final SplittableRandom random,
        final int configRedundancyMax,
        final GeneratorTargets targets,
        final TrafficShape shape,
        final ReportWriter writer,
        final PrimitiveMix mix,
        final ValidWriter valid)
    {
        this.random = random;
        this.configRedundancyMax = configRedundancyMax;
        this.targets = targets;
        this.shape = shape;
        this.writer = writer;
        this.mix = mix;
        this.valid = valid;
        final EnumSet<BadKind> possible = EnumSet.allOf(BadKind.class);
        if (targets.keyWriteCollectors.length == 0 && targets.keyIncrementCollectors.length == 0)
        {
            possible.remove(BadKind.REDUNDANCY_ZERO);
            possible.remove(BadKind.REDUNDANCY_ABOVE_MAX);
        }
        kinds = possible.toArray(new BadKind[0]);
    }

    /**
     * @return the kinds drawn from.
     */
    List<BadKind> kinds()
    {
        return List.of(kinds);
    }

    /**
     * @return a kind, drawn uniformly.
     */
    BadKind draw()
    {
        return kinds.length == 1 ? kinds[0] : kinds[random.nextInt(kinds.length)];
    }

    /**
     * Writes an invalid report of {@code kind}.
     *
     * @return the payload's length (base header and body).
     */
    int write(final MutableDirectBuffer dst, final int offset, final BadKind kind)
    {
        switch (kind)
        {
            case UNKNOWN_OPCODE:
            {
                // 0x00 or 0x06..0xFF: 0x05 (Sketch-Merge) is known and of variable length.
                final int draw = random.nextInt(251);
                final int opcode = draw == 0 ? 0 : draw + 5;
                return writer.unknownOpcode(dst, offset, opcode, shape.pick(targets.allCollectors),
                    shape.pickReporter());
            }
            case REDUNDANCY_ZERO:
            case REDUNDANCY_ABOVE_MAX:
                return writeBadRedundancy(dst, offset, kind);
            case TRUNCATED:
            {
                final int full = valid.write(dst, offset, mix.pick(random), false);
                final int subLength = full - writer.baseLength();
                // Cut at least 2 bytes: 3-byte form minus one byte would read as a complete 2-byte-form report.
                return full - (2 + random.nextInt(subLength - 1));
            }
            default:
            {
                long listId;
                do
                {
                    listId = random.nextInt() & 0xFFFF_FFFFL;
                }
                while (Arrays.binarySearch(targets.configListIdsSorted, listId) >= 0);
                return writer.append(dst, offset, shape.pick(targets.allCollectors), shape.pickReporter(), listId);
            }
        }
    }

    private int writeBadRedundancy(final MutableDirectBuffer dst, final int offset, final BadKind kind)
    {
        final int redundancy = kind == BadKind.REDUNDANCY_ZERO ?
            0 : configRedundancyMax + 1 + random.nextInt(255 - configRedundancyMax);
        final int[] keyWriteCollectors = targets.keyWriteCollectors;
        final int[] keyIncrementCollectors = targets.keyIncrementCollectors;
        final boolean useKeyWrite = keyIncrementCollectors.length == 0 ||
            (keyWriteCollectors.length > 0 && random.nextBoolean());
        return useKeyWrite ?
            writer.keyWrite(dst, offset, shape.pick(keyWriteCollectors), shape.pickReporter(), shape.nextKey(),
                redundancy) :
            writer.keyIncrement(dst, offset, shape.pick(keyIncrementCollectors), shape.pickReporter(),
                shape.nextKey(), redundancy);
    }
}
