package io.dta.appliance.bench;

import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.replay.CutShortCapture;
import io.dta.codec.AppendFlyweight;
import io.dta.codec.DtaBaseHeaderFlyweight;
import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.KeyIncrementFlyweight;
import io.dta.codec.KeyWriteFlyweight;
import io.dta.codec.PostcardFlyweight;
import io.dta.codec.SketchColumnFlyweight;
import io.dta.codec.UdpFlyweight;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import io.dta.config.BaseHeader;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;
import io.dta.config.SketchConfig;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The frames a bench feeds the engine round and round, held in memory: either {@link EngineBench}'s synthetic reports
 * of one primitive ({@link #synthetic}), or every frame of a capture in capture order ({@link #capture}: reports,
 * responses, ARP, anything; the engine counts what it skips). Both go through the same feeding and measuring path
 * ({@link EngineBench}, and through DPDK {@code DpdkBench}, which copies them into a capture or into ring mbufs).
 * <p>
 * Synthetic Sketch-Merge columns have their epoch renumbered as the cycle repeats, so that epochs keep rolling over;
 * a capture's frames are fed as they are, so whatever the engine drops the second time round (sequence duplicates,
 * stale sketch epochs) it drops.
 */
public final class BenchInput
{
    /**
     * Bytes of frames a capture may bring into memory, each frame padded to a cache line (64 bytes): a larger one is
     * refused rather than loaded.
     */
    public static final long MAX_CAPTURE_BYTES = 1L << 30;

    /**
     * Frames a capture may hold (the offsets and lengths are two int arrays).
     */
    public static final int MAX_CAPTURE_FRAMES = 1 << 24;

    static final int DISTINCT_REPORTS = 1 << 14;
    private static final int MIN_STRIDE = 128;
    private static final int ALIGNMENT = 64;
    private static final int INITIAL_CAPTURE_BYTES = 1 << 20;
    private static final int REPORT_BASE_OFFSET = 42;

    private final UnsafeBuffer frames;
    private final int[] offsets;
    private final int[] lengths;
    private final int count;
    private final int maxLength;
    private final BenchPrimitive primitive;
    private final Path file;
    private final String cutShortWarning;
    private final int epochOffset;
    private final int columnsPerEpoch;
    private final int epochsPerCycle;
    private int cursor;
    private long cycle;

    private BenchInput(
        final UnsafeBuffer frames,
        final int[] offsets,
        final int[] lengths,
        final BenchPrimitive primitive,
        final Path file,
        final String cutShortWarning,
        final int columnsPerEpoch,
        final int epochsPerCycle,
        final int baseHeaderLength)
    {
        this.frames = frames;
        this.offsets = offsets;
        this.lengths = lengths;
        this.count = offsets.length;
        int longest = 0;
        for (final int length : lengths)
        {
            longest = Math.max(longest, length);
        }
        this.maxLength = longest;
        this.primitive = primitive;
        this.file = file;
        this.cutShortWarning = cutShortWarning;
        this.epochOffset = columnsPerEpoch > 0 ?
            REPORT_BASE_OFFSET + baseHeaderLength + SketchColumnFlyweight.EPOCH_OFFSET : -1;
        this.columnsPerEpoch = columnsPerEpoch;
        this.epochsPerCycle = epochsPerCycle;
    }

    /**
     * The synthetic reports of one primitive, addressed to the configuration's first collector that has the
     * primitive's region ({@link BenchPrimitive#collectorIn}): 16384 distinct ones (for Sketch-Merge whole epochs of
     * that collector's first sketch, its switches' columns in turn).
     *
     * @param primitive  what to drive.
     * @param config     the configuration the engine runs with.
     * @param redundancy N for Key-Write and Key-Increment.
     * @param seed       seed of the report contents.
     * @return the reports.
     * @throws IllegalArgumentException if no collector has the primitive's region
     *                                  ({@link BenchPrimitive#missingIn}).
     */
    public static BenchInput synthetic(
        final BenchPrimitive primitive, final ApplianceConfig config, final int redundancy, final long seed)
    {
        final CollectorConfig collector = primitive.collectorIn(config);
        if (null == collector)
        {
            // Reports nobody hosts would all be dropped as unroutable (or, for Append, divide by no list).
            throw new IllegalArgumentException(primitive.missingIn(config));
        }
        final SketchConfig sketch = BenchPrimitive.SKETCH == primitive ? collector.sketches().get(0) : null;
        final int columnsPerEpoch;
        final int epochsPerCycle;
        final int distinct;
        final int stride;
        if (null != sketch)
        {
            // Whole epochs per cycle of pre-built columns; the epoch field is renumbered as the cycle repeats.
            columnsPerEpoch = sketch.switches() * sketch.columns();
            epochsPerCycle = Math.max(1, DISTINCT_REPORTS / columnsPerEpoch);
            distinct = epochsPerCycle * columnsPerEpoch;
            stride = Math.max(MIN_STRIDE, (REPORT_BASE_OFFSET + 3 + SketchColumnFlyweight.length(sketch.rows()) + 63) & ~63);
        }
        else
        {
            columnsPerEpoch = 0;
            epochsPerCycle = 0;
            distinct = DISTINCT_REPORTS;
            stride = MIN_STRIDE;
        }
        final UnsafeBuffer reports = new UnsafeBuffer(ByteBuffer.allocateDirect(distinct * stride));
        final int[] offsets = new int[distinct];
        final int[] lengths = new int[distinct];
        final SplittableRandom random = new SplittableRandom(seed);
        final int dataLength = null == collector.keyWrite() ? 4 : collector.keyWrite().slotSize() - 4;
        final EthernetFlyweight eth = new EthernetFlyweight();
        final Ipv4Flyweight ip = new Ipv4Flyweight();
        final UdpFlyweight udp = new UdpFlyweight();
        final DtaBaseHeaderFlyweight base = new DtaBaseHeaderFlyweight();
        // The form the engine expects; under auto either is taken, and the 3-byte one carries the seqnum.
        final DtaBaseHeaderForm form = BaseHeader.TWO == config.reports().baseHeader() ?
            DtaBaseHeaderForm.TWO : DtaBaseHeaderForm.THREE;
        final Synthetic shape = new Synthetic(primitive, sketch, columnsPerEpoch, redundancy, dataLength,
            collector.lists().stream().mapToLong(ListConfig::id).toArray(), config.postcards().hops());
        for (int i = 0; i < distinct; i++)
        {
            final int offset = i * stride;
            final int source = null != sketch ? 0x0a000200 | (i % columnsPerEpoch) % sketch.switches() :
                0x0a000100 | (i & 0xFF);
            final int subLength = shape.write(reports, offset + 42 + form.length(), i, random);
            final int udpLength = 8 + form.length() + subLength;
            eth.wrap(reports, offset).dstMac(collector.mac()).srcMac(0x020000000000L | (i & 0xFF))
                .etherType(EthernetFlyweight.ETHER_TYPE_IPV4);
            ip.wrap(reports, offset + 14).versionAndIhl(5).tos(0).totalLength(20 + udpLength).identification(i)
                .flagsAndFragmentOffset(0).ttl(64).protocol(Ipv4Flyweight.PROTOCOL_UDP).headerChecksum(0)
                .src(source).dst(collector.ip()).updateChecksum();
            udp.wrap(reports, offset + 34).srcPort(40041).dstPort(config.reports().udpPort()).length(udpLength)
                .checksum(0);
            base.wrap(reports, offset + 42, form).opcode(primitive.opcode()).seqnum(0).flags(0);
            offsets[i] = offset;
            lengths[i] = 42 + udpLength;
        }
        return new BenchInput(
            reports, offsets, lengths, primitive, null, null, columnsPerEpoch, epochsPerCycle, form.length());
    }

    /**
     * What a synthetic report of one primitive holds after its base header: the sub-header and data of report
     * {@code i}, from the seeded random source.
     */
    private record Synthetic(
        BenchPrimitive primitive, SketchConfig sketch, int columnsPerEpoch, int redundancy, int dataLength,
        long[] listIds, int hops)
    {
        /**
         * @return the sub-header's length with its data.
         */
        int write(final UnsafeBuffer reports, final int subOffset, final int i, final SplittableRandom random)
        {
            switch (primitive)
            {
                case KEYWRITE ->
                {
                    new KeyWriteFlyweight().wrap(reports, subOffset, dataLength).redundancy(redundancy)
                        .key(random.nextInt() & 0xFFFFFFFFL).data(random.nextInt() & 0xFFFFFFFFL);
                    return KeyWriteFlyweight.FIXED_LENGTH + dataLength;
                }
                case KEYINCREMENT ->
                {
                    new KeyIncrementFlyweight().wrap(reports, subOffset).redundancy(redundancy)
                        .key(random.nextInt() & 0xFFFFFFFFL).counter(1 + random.nextInt(1000));
                    return KeyIncrementFlyweight.LENGTH;
                }
                case APPEND ->
                {
                    new AppendFlyweight().wrap(reports, subOffset).listId(listIds[i % listIds.length])
                        .data(random.nextInt() & 0xFFFFFFFFL);
                    return AppendFlyweight.LENGTH;
                }
                case SKETCH ->
                {
                    // Column c of every switch in turn, so column c completes with its last switch.
                    final int inEpoch = i % columnsPerEpoch;
                    final SketchColumnFlyweight column = new SketchColumnFlyweight().wrap(reports, subOffset)
                        .sketchId((int)sketch.id()).switchId(inEpoch % sketch.switches()).epoch(i / columnsPerEpoch)
                        .column(inEpoch / sketch.switches()).rows(sketch.rows()).reserved(0);
                    for (int r = 0; r < sketch.rows(); r++)
                    {
                        column.counter(r, random.nextInt(1 << 10));
                    }
                    return SketchColumnFlyweight.length(sketch.rows());
                }
                default ->
                {
                    // Consecutive reports walk each flow through all its hops, so every path completes.
                    new PostcardFlyweight().wrap(reports, subOffset).key(i / hops).hop(1 + i % hops)
                        .data(random.nextInt() & 0xFFFFFFFFL);
                    return PostcardFlyweight.LENGTH;
                }
            }
        }
    }

    /**
     * Every frame of a capture (pcap or pcapng, any link type {@link PcapReader} reads, presented as the Ethernet
     * frames {@code dta replay} sees), in capture order, loaded once into memory, each at a cache-line boundary. A
     * capture cut short inside its last record is read to its last whole record, as {@code dta replay} reads it
     * ({@link #cutShortWarning()}).
     *
     * @param file           the capture.
     * @param destinationMac destination of a non-Ethernet packet's frame: the appliance's ({@code translator.mac}).
     * @return its frames.
     * @throws IOException              if the file cannot be read or is no capture (or a corrupt one).
     * @throws IllegalArgumentException if it holds no frame, or more than {@link #MAX_CAPTURE_FRAMES} frames, or
     *                                  frames that take more than {@link #MAX_CAPTURE_BYTES} bytes in memory (each
     *                                  padded to 64 bytes) or more than the JVM can allocate (its direct memory).
     */
    public static BenchInput capture(final Path file, final long destinationMac) throws IOException
    {
        // One pass, so that a pipe or FIFO (read once) can be benched like a file; the frames go into a buffer that
        // grows as they come, which this cold set-up path can afford.
        final ExpandableDirectByteBuffer frames = new ExpandableDirectByteBuffer(INITIAL_CAPTURE_BYTES);
        final IntArrayList offsets = new IntArrayList();
        final IntArrayList lengths = new IntArrayList();
        String cutShort = null;
        long bytes = 0;
        try (PcapReader reader = PcapReader.open(file).destinationMac(destinationMac))
        {
            while (reader.next())
            {
                final int count = offsets.size() + 1;
                if (count > MAX_CAPTURE_FRAMES)
                {
                    throw new IllegalArgumentException(file + " holds more than " + MAX_CAPTURE_FRAMES +
                        " frames, more than dta bench loads into memory: bench a part of it");
                }
                final int length = reader.capturedLength();
                final long offset = bytes;
                bytes += align(length);
                if (bytes > MAX_CAPTURE_BYTES)
                {
                    throw new IllegalArgumentException("the first " + count + " frames of " + file + " take " +
                        megabytes(bytes) + " MB in memory (each padded to " + ALIGNMENT + " bytes), more than the " +
                        (MAX_CAPTURE_BYTES >> 20) + " MB dta bench loads: bench a part of it");
                }
                try
                {
                    frames.putBytes((int)offset, reader.buffer(), reader.offset(), length);
                }
                catch (final OutOfMemoryError ex)
                {
                    // Direct memory is capped apart from the heap (-XX:MaxDirectMemorySize): say so rather than die.
                    throw new IllegalArgumentException("the first " + count + " frames of " + file + " take " +
                        megabytes(bytes) + " MB in memory (each padded to " + ALIGNMENT + " bytes), more than this " +
                        "JVM can allocate (" + ex.getMessage() + "; see -XX:MaxDirectMemorySize and -Xmx, " +
                        "DTA_JAVA_OPTS with bin/dta)");
                }
                offsets.addInt((int)offset);
                lengths.addInt(length);
            }
            if (reader.cutShort())
            {
                // In the words of dta replay, which translates the same whole records.
                cutShort = new CutShortCapture(CutShortCapture.IN, file, reader.cutShortAt(), reader.packetIndex() + 1)
                    .warning();
            }
        }
        if (offsets.isEmpty())
        {
            throw new IllegalArgumentException(file + " holds no frame: there is nothing to bench");
        }
        return new BenchInput(new UnsafeBuffer(frames.byteBuffer(), 0, (int)bytes), offsets.toIntArray(),
            lengths.toIntArray(), null, file, cutShort, 0, 0, 0);
    }

    private static long megabytes(final long bytes)
    {
        return (bytes + (1 << 20) - 1) >> 20;
    }

    private static int align(final int length)
    {
        return (Math.max(1, length) + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /**
     * Feeds the next frame to the engine (after the last one, the first again).
     *
     * @param engine   the engine.
     * @param nowNanos the engine clock.
     */
    public void feedNext(final TranslatorEngine engine, final long nowNanos)
    {
        final int r = cursor;
        if (epochOffset >= 0)
        {
            // Epochs keep rolling over: a replayed epoch number would only be dropped as stale.
            frames.putInt(offsets[r] + epochOffset, (int)(cycle * epochsPerCycle + r / columnsPerEpoch),
                ByteOrder.BIG_ENDIAN);
        }
        if (++cursor == count)
        {
            cursor = 0;
            cycle++;
        }
        engine.onFrame(frames, offsets[r], lengths[r], nowNanos);
    }

    /**
     * @return how many distinct frames there are (for a capture: its frames).
     */
    public int count()
    {
        return count;
    }

    /**
     * @param index which frame, {@code 0..count()}.
     * @return its length.
     */
    public int length(final int index)
    {
        return lengths[index];
    }

    /**
     * @return the longest frame's length.
     */
    public int maxLength()
    {
        return maxLength;
    }

    /**
     * Copies one frame (as it was built or captured: a synthetic sketch column with its first epoch).
     *
     * @param index  which frame, {@code 0..count()}.
     * @param buffer where to copy it.
     * @param offset at which offset.
     * @return its length.
     */
    public int copy(final int index, final MutableDirectBuffer buffer, final int offset)
    {
        final int length = lengths[index];
        buffer.putBytes(offset, frames, offsets[index], length);
        return length;
    }

    /**
     * Writes {@code total} frames to a capture: frame {@code i % count()} as the {@code i}-th, so the capture repeats
     * the frames whole when {@code total} is a multiple of {@link #count()}, and holds the first {@code total} when
     * it is smaller. Timestamps are 1 µs apart.
     *
     * @param writer where to write them.
     * @param total  how many.
     * @throws IOException if the capture cannot be written.
     */
    public void write(final PcapWriter writer, final int total) throws IOException
    {
        for (int i = 0; i < total; i++)
        {
            final int index = i % count;
            writer.write(i * 1000L, frames, offsets[index], lengths[index]);
        }
    }

    /**
     * @return the primitive of synthetic reports, null for a capture.
     */
    public BenchPrimitive primitive()
    {
        return primitive;
    }

    /**
     * @return the capture the frames were read from, null for synthetic reports.
     */
    public Path file()
    {
        return file;
    }

    /**
     * @return the warning about a capture cut short inside its last record (in the words of {@code dta replay}'s
     * warning, {@link CutShortCapture#warning()}), or null.
     */
    public String cutShortWarning()
    {
        return cutShortWarning;
    }
}
