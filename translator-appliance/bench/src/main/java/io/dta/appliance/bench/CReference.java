package io.dta.appliance.bench;

import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;
import io.dta.config.RegionConfig;
import io.dta.dpdk.DpdkLibrary;
import io.dta.dpdk.DpdkUnavailableException;
import io.dta.dpdk.Mempool;
import io.dta.dpdk.NativeLibraryPaths;
import io.dta.dpdk.RingFeeder;
import io.dta.appliance.engine.TranslatorEngine;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The C reference loop of {@code dta bench --io dpdk --compare-c}: {@code libdta_cref.so}, built by this module
 * (translator-bench) from {@code src/main/c/dta_cref.c}, does the engine's open-loop work (same parsing, same
 * primitives, same frames, same ICRC) in C. It runs in this process, on the EAL this process started, over the ports and the
 * mempool the Java side opened, so the Java engine and the C loop can be measured alternately in one run.
 * <p>
 * The library is looked for at the system property {@code dta.cref}, the environment variable {@code DTA_CREF},
 * {@code lib/libdta_cref.so} beside the jar, and the source tree's {@code translator-appliance/bench/target/native}.
 * It needs the DPDK libraries: load {@link DpdkLibrary} first.
 * <p>
 * Two modes, one per context: {@link #run} (mbufs, the benchmark) and the buffer mode ({@link #onFrame},
 * {@link #poll}, {@link #flush} with frames appended to {@link #output}), in which tests compare its frames with
 * the engine's byte for byte.
 */
public final class CReference implements AutoCloseable
{
    /** File name of the library. */
    public static final String LIBRARY_FILE = "libdta_cref.so";

    /**
     * The primitives the C loop implements (Sketch-Merge is the engine's alone).
     */
    public static final java.util.Set<io.dta.appliance.bench.BenchPrimitive> PRIMITIVES = java.util.Collections
        .unmodifiableSet(java.util.EnumSet.of(io.dta.appliance.bench.BenchPrimitive.KEYWRITE,
            io.dta.appliance.bench.BenchPrimitive.KEYINCREMENT, io.dta.appliance.bench.BenchPrimitive.APPEND,
            io.dta.appliance.bench.BenchPrimitive.POSTCARD));

    /** System property naming the library's absolute path. */
    public static final String LIBRARY_PROPERTY = "dta.cref";

    /** Counter: frames received. */
    public static final int FRAMES_IN = 0;
    /** Counter: DTA reports received. */
    public static final int REPORTS_IN = 1;
    /** Counter: reports translated. */
    public static final int REPORTS_TRANSLATED = 2;
    /** Counter: RoCEv2 frames sent. */
    public static final int FRAMES_OUT = 3;
    /** Counter: reports dropped (no route, bad redundancy, length, hop, IPv4 checksum, no mbuf). */
    public static final int DROPS = 4;
    /** Counter: frames neither DTA nor RoCEv2. */
    public static final int OTHER = 5;
    /** Counter: malformed frames. */
    public static final int MALFORMED = 6;
    /** Counter: reports the reference does not handle (sequence-tracked, essential, Sketch-Merge). */
    public static final int UNSUPPORTED = 7;
    /** Counter: collector responses (ignored: open loop). */
    public static final int RESPONSES = 8;
    /** Counter: frames the tx queue refused. */
    public static final int TX_DROPPED = 9;
    /** Counter: Append entries. */
    public static final int APPEND_ENTRIES = 11;
    /** Counter: buffer-mode frames that did not fit the output. */
    public static final int OUTPUT_OVERFLOW = 14;

    private static final int VERSION = 2;
    private static final int HEADER_WORDS = 16;
    private static final int COLLECTOR_WORDS = 12;
    private static final int LIST_WORDS = 8;
    private static final int TEMPLATE_BYTES = 128;
    private static final int QP_WORDS = 2 + 2 * TEMPLATE_BYTES / 8;

    private static final Object LOCK = new Object();
    private static Handles handles;
    private static String failure;

    private final Handles h;
    // Shared: with several workers a context is made on the main thread and run on its worker's lcore.
    private final Arena arena = Arena.ofShared();
    private final MemorySegment context;
    private final MemorySegment result;
    private MemorySegment output = MemorySegment.NULL;
    private MemorySegment frame = MemorySegment.NULL;
    private boolean closed;

    /**
     * The result of one measured run.
     *
     * @param reports  frames received.
     * @param frames   frames sent.
     * @param nanos    elapsed time.
     * @param txDropped frames the tx queue refused.
     */
    public record RunResult(long reports, long frames, long nanos, long txDropped)
    {
        /**
         * @return frames received per second.
         */
        public double reportsPerSecond()
        {
            return reports * 1e9 / nanos;
        }
    }

    private record Handles(
        MethodHandle create,
        MethodHandle destroy,
        MethodHandle crcName,
        MethodHandle counter,
        MethodHandle setOutput,
        MethodHandle outputLength,
        MethodHandle onFrame,
        MethodHandle poll,
        MethodHandle flush,
        MethodHandle fixedClock,
        MethodHandle run,
        MethodHandle ioFloor)
    {
    }

    /**
     * Builds a context for a configuration (the benchmark's, with its Append batch size applied).
     *
     * @param config  the configuration.
     * @param crcMode 0 to let the library time its CRC-32 implementations and keep the fastest, 1 slice-by-8,
     *                2 zlib, 3 DPDK's rte_net_crc.
     * @throws DpdkUnavailableException when the library (or DPDK) cannot be loaded.
     * @throws IllegalArgumentException when the library refuses the configuration.
     */
    public CReference(final ApplianceConfig config, final int crcMode)
    {
        h = handles();
        final byte[] words = marshal(config, crcMode);
        final MemorySegment segment = arena.allocate(words.length, 8);
        MemorySegment.copy(words, 0, segment, ValueLayout.JAVA_BYTE, 0, words.length);
        try
        {
            context = (MemorySegment)h.create.invokeExact(segment, words.length);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
        if (MemorySegment.NULL.equals(context))
        {
            arena.close();
            throw new IllegalArgumentException("the C reference refused the configuration");
        }
        result = arena.allocate(4 * Long.BYTES, 8);
    }

    /**
     * @return true when the library loads in this process.
     */
    public static boolean isAvailable()
    {
        return null == unavailableReason();
    }

    /**
     * @return why the C reference cannot be used (what to build), or null when it can.
     */
    public static String unavailableReason()
    {
        try
        {
            handles();
            return null;
        }
        catch (final DpdkUnavailableException ex)
        {
            return ex.getMessage();
        }
    }

    private static Handles handles()
    {
        synchronized (LOCK)
        {
            if (null != handles)
            {
                return handles;
            }
            if (null != failure)
            {
                throw new DpdkUnavailableException(failure, null);
            }
            // The DPDK libraries first (their own clear message when missing).
            DpdkLibrary.lookup();
            final List<Path> candidates = candidates();
            for (final Path candidate : candidates)
            {
                if (Files.isRegularFile(candidate))
                {
                    try
                    {
                        handles = link(SymbolLookup.libraryLookup(candidate, Arena.global()));
                        return handles;
                    }
                    catch (final IllegalArgumentException | IllegalCallerException | java.util.NoSuchElementException ex)
                    {
                        failure = "the C reference " + candidate + " cannot be loaded (" + ex.getMessage() + ")";
                        throw new DpdkUnavailableException(failure, ex);
                    }
                }
            }
            failure = "the C reference loop (" + LIBRARY_FILE + ") was not found (looked at " + candidates +
                "). It is built by the translator-bench module: mvn -B -DskipTests -pl translator-appliance/bench -am " +
                "package (needs gcc, " +
                "pkg-config, libdpdk-dev and zlib1g-dev), or pass -D" + LIBRARY_PROPERTY + "=/path/to/" +
                LIBRARY_FILE + ".";
            throw new DpdkUnavailableException(failure, null);
        }
    }

    private static Handles link(final SymbolLookup lookup)
    {
        final Linker linker = Linker.nativeLinker();
        final var pointer = ValueLayout.ADDRESS;
        final var jlong = ValueLayout.JAVA_LONG;
        final var jint = ValueLayout.JAVA_INT;
        final var jshort = ValueLayout.JAVA_SHORT;
        return new Handles(
            linker.downcallHandle(lookup.findOrThrow("dta_cref_create"), FunctionDescriptor.of(pointer, pointer, jint)),
            linker.downcallHandle(lookup.findOrThrow("dta_cref_destroy"), FunctionDescriptor.ofVoid(pointer)),
            linker.downcallHandle(lookup.findOrThrow("dta_cref_crc_name"),
                FunctionDescriptor.of(pointer.withTargetLayout(java.lang.foreign.MemoryLayout.sequenceLayout(64,
                ValueLayout.JAVA_BYTE)), pointer)),
            linker.downcallHandle(lookup.findOrThrow("dta_cref_counter"), FunctionDescriptor.of(jlong, pointer, jint)),
            linker.downcallHandle(lookup.findOrThrow("dta_cref_set_output"),
                FunctionDescriptor.ofVoid(pointer, pointer, jlong)),
            linker.downcallHandle(lookup.findOrThrow("dta_cref_output_length"), FunctionDescriptor.of(jlong, pointer)),
            linker.downcallHandle(lookup.findOrThrow("dta_cref_on_frame"),
                FunctionDescriptor.ofVoid(pointer, pointer, jint, jlong)),
            linker.downcallHandle(lookup.findOrThrow("dta_cref_poll"), FunctionDescriptor.ofVoid(pointer, jlong)),
            linker.downcallHandle(lookup.findOrThrow("dta_cref_flush"), FunctionDescriptor.ofVoid(pointer, jlong)),
            linker.downcallHandle(lookup.findOrThrow("dta_cref_fixed_clock"), FunctionDescriptor.ofVoid(pointer, jlong)),
            // Not critical: one call runs for a whole measuring round.
            linker.downcallHandle(lookup.findOrThrow("dta_cref_run"),
                FunctionDescriptor.of(jint, pointer, jshort, jshort, jshort, jshort, jlong, jlong, pointer, pointer,
                    pointer)),
            linker.downcallHandle(lookup.findOrThrow("dta_cref_io_floor"),
                FunctionDescriptor.of(jint, jshort, jlong, pointer, pointer, pointer)));
    }

    /**
     * The configuration as the library reads it: little-endian 64-bit words (header, collectors, lists, QPs with
     * their WRITE and FETCH_ADD templates), QPs in the engine's order (per collector Key-Write, Key-Increment,
     * postcards, then its lists), templates encoded as {@code RoceFrameBuilder} encodes its own.
     */
    static byte[] marshal(final ApplianceConfig config, final int crcMode)
    {
        final List<CollectorConfig> collectors = config.collectors();
        final List<long[]> collectorWords = new ArrayList<>();
        final List<long[]> listWords = new ArrayList<>();
        final List<RegionConfig> qps = new ArrayList<>();
        final List<CollectorConfig> qpCollectors = new ArrayList<>();
        int keyWriteDataLength = Integer.MAX_VALUE;
        for (final CollectorConfig collector : collectors)
        {
            final long[] w = new long[COLLECTOR_WORDS];
            w[0] = collector.ip() & 0xFFFFFFFFL;
            w[1] = -1;
            w[5] = -1;
            w[8] = -1;
            if (null != collector.keyWrite())
            {
                w[1] = qps.size();
                w[2] = collector.keyWrite().region().address();
                w[3] = collector.keyWrite().region().length();
                w[4] = collector.keyWrite().slotSize();
                keyWriteDataLength = Math.min(keyWriteDataLength, collector.keyWrite().slotSize() - 4);
                qps.add(collector.keyWrite().region());
                qpCollectors.add(collector);
            }
            if (null != collector.keyIncrement())
            {
                w[5] = qps.size();
                w[6] = collector.keyIncrement().region().address();
                w[7] = collector.keyIncrement().region().length();
                qps.add(collector.keyIncrement().region());
                qpCollectors.add(collector);
            }
            if (null != collector.postcards())
            {
                w[8] = qps.size();
                w[9] = collector.postcards().region().address();
                w[10] = collector.postcards().region().length();
                qps.add(collector.postcards().region());
                qpCollectors.add(collector);
            }
            for (final ListConfig list : collector.lists())
            {
                final long[] l = new long[LIST_WORDS];
                l[0] = list.id();
                l[1] = qps.size();
                l[2] = io.dta.config.ListLayout.REFERENCE == list.layout() ? 0 : 1;
                l[3] = config.append().batchSize();
                l[4] = list.region().address();
                l[5] = list.region().length();
                listWords.add(l);
                qps.add(list.region());
                qpCollectors.add(collector);
            }
            collectorWords.add(w);
        }
        final int words = HEADER_WORDS + collectorWords.size() * COLLECTOR_WORDS + listWords.size() * LIST_WORDS +
            qps.size() * QP_WORDS;
        final ByteBuffer out = ByteBuffer.allocate(words * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        putHeader(out, config, crcMode, keyWriteDataLength, collectorWords.size(), listWords.size(), qps.size());
        collectorWords.forEach(w -> putAll(out, w));
        listWords.forEach(w -> putAll(out, w));
        putQps(out, config, qps, qpCollectors);
        return out.array();
    }

    private static void putHeader(
        final ByteBuffer out, final ApplianceConfig config, final int crcMode, final int keyWriteDataLength,
        final int collectors, final int lists, final int qps)
    {
        out.putLong(VERSION);
        out.putLong(config.reports().udpPort());
        out.putLong(switch (config.reports().baseHeader())
        {
            case TWO -> 2;
            case AUTO -> 0;
            default -> 3;
        });
        out.putLong(config.reports().verifyChecksums() ? 1 : 0);
        out.putLong(Integer.MAX_VALUE == keyWriteDataLength ? 4 : keyWriteDataLength);
        out.putLong(config.redundancy().max());
        out.putLong(TranslatorEngine.HOLD_NANOS);
        out.putLong(config.acks().requestInterval());
        out.putLong(config.postcards().hops());
        out.putLong(config.postcards().idleFlushMicros() * 1000);
        out.putLong(config.append().idleFlushMicros() * 1000);
        out.putLong(collectors);
        out.putLong(lists);
        out.putLong(qps);
        out.putLong(crcMode);
        out.putLong(config.postcards().cacheEntries());
    }

    /**
     * Each QP's starting PSN and its WRITE and FETCH_ADD templates.
     */
    private static void putQps(
        final ByteBuffer out, final ApplianceConfig config, final List<RegionConfig> qps,
        final List<CollectorConfig> qpCollectors)
    {
        final var translator = config.translator();
        final UnsafeBuffer template = new UnsafeBuffer(ByteBuffer.allocateDirect(TEMPLATE_BYTES));
        for (int i = 0; i < qps.size(); i++)
        {
            final RegionConfig region = qps.get(i);
            final CollectorConfig collector = qpCollectors.get(i);
            out.putLong(region.startPsn() & 0xFFFFFFL);
            out.putLong(0);
            final RoceFrameEncoder encoder = new RoceFrameEncoder()
                .srcMac(translator.mac()).srcIp(translator.ip()).tos((translator.dscp() << 2) | translator.ecn())
                .ttl(translator.ttl()).pKey(translator.pKey()).dontFragment(true).migReq(true)
                .dstPort(4791).dstMac(collector.mac()).dstIp(collector.ip()).srcPort(region.udpSourcePort())
                .destQp(region.qpn()).rKey(region.rkey() & 0xFFFFFFFFL).psn(0).ackReq(false).identification(0)
                .virtualAddress(0);
            template.setMemory(0, TEMPLATE_BYTES, (byte)0);
            encoder.opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).dmaLength(0).noPayload().encode(template, 0);
            putTemplate(out, template);
            template.setMemory(0, TEMPLATE_BYTES, (byte)0);
            encoder.opcode(RoceOpcode.RC_FETCH_ADD).swapAddData(0).compareData(0).noPayload().encode(template, 0);
            putTemplate(out, template);
        }
    }

    private static void putTemplate(final ByteBuffer out, final UnsafeBuffer template)
    {
        for (int i = 0; i < TEMPLATE_BYTES; i++)
        {
            out.put(template.getByte(i));
        }
    }

    private static void putAll(final ByteBuffer out, final long[] words)
    {
        for (final long w : words)
        {
            out.putLong(w);
        }
    }

    /**
     * @return the CRC-32 implementation the library chose (or was told to use).
     */
    public String crcName()
    {
        try
        {
            return ((MemorySegment)h.crcName.invokeExact(context)).getString(0);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * @param index one of the counter constants.
     * @return its value.
     */
    public long counter(final int index)
    {
        try
        {
            return (long)h.counter.invokeExact(context, index);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Runs the C loop on the given ports until {@code frames} frames were received (mbuf mode).
     *
     * @param rxPortId port the reports come from (rx queue 0).
     * @param txPortId port the frames go to (tx queue 0).
     * @param pool     where frame mbufs come from.
     * @param frames   frames to receive.
     * @return what was measured.
     */
    public RunResult run(final int rxPortId, final int txPortId, final Mempool pool, final long frames)
    {
        return run(rxPortId, txPortId, pool, frames, null);
    }

    /**
     * As {@link #run(int, int, Mempool, long)}, the input a ring fed once per duty cycle, after the tx flush, by the
     * same native function the Java bench loop calls ({@link RingFeeder#feed()}).
     *
     * @param rxPortId port the reports come from (rx queue 0): the feeder's port, when there is one.
     * @param txPortId port the frames go to (tx queue 0).
     * @param pool     where frame mbufs come from.
     * @param frames   frames to receive.
     * @param feeder   the ring input's feeder, or null (a device that needs no feeding).
     * @return what was measured.
     */
    public RunResult run(
        final int rxPortId, final int txPortId, final Mempool pool, final long frames, final RingFeeder feeder)
    {
        return run(rxPortId, 0, txPortId, 0, pool, frames, feeder);
    }

    /**
     * As {@link #run(int, int, Mempool, long, RingFeeder)} on given queues: several contexts run at once, each on an
     * EAL lcore of its own with queues of its own (the C loop on W lcores).
     *
     * @param rxPortId  port the reports come from.
     * @param rxQueue   its rx queue.
     * @param txPortId  port the frames go to.
     * @param txQueue   its tx queue.
     * @param pool      where frame mbufs come from.
     * @param frames    frames to receive.
     * @param feeder    the ring input's feeder of that queue, or null.
     * @return what was measured.
     */
    public RunResult run(
        final int rxPortId,
        final int rxQueue,
        final int txPortId,
        final int txQueue,
        final Mempool pool,
        final long frames,
        final RingFeeder feeder)
    {
        final int rc;
        try
        {
            rc = (int)h.run.invokeExact(context, (short)rxPortId, (short)rxQueue, (short)txPortId, (short)txQueue,
                pool.segment().address(), frames, feedFunction(feeder), feederSegment(feeder), result);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
        if (0 != rc)
        {
            throw new IllegalStateException("the C reference context already runs on another mempool");
        }
        return new RunResult(result.getAtIndex(ValueLayout.JAVA_LONG, 0), result.getAtIndex(ValueLayout.JAVA_LONG, 1),
            result.getAtIndex(ValueLayout.JAVA_LONG, 2), result.getAtIndex(ValueLayout.JAVA_LONG, 3));
    }

    /**
     * The input floor that both loops pay, in C: the clock and rx bursts whose frames are touched and freed, nothing
     * translated or sent.
     *
     * @param rxPortId port the reports come from (rx queue 0).
     * @param frames   frames to receive.
     * @return what was measured (no frames sent).
     */
    public RunResult ioFloor(final int rxPortId, final long frames)
    {
        return ioFloor(rxPortId, frames, null);
    }

    /**
     * As {@link #ioFloor(int, long)}, the ring fed once per duty cycle as in {@link #run(int, int, Mempool, long,
     * RingFeeder)}.
     *
     * @param rxPortId port the reports come from (rx queue 0).
     * @param frames   frames to receive.
     * @param feeder   the ring input's feeder, or null.
     * @return what was measured (no frames sent).
     */
    public RunResult ioFloor(final int rxPortId, final long frames, final RingFeeder feeder)
    {
        try
        {
            final int rc = (int)h.ioFloor.invokeExact((short)rxPortId, frames, feedFunction(feeder),
                feederSegment(feeder), result);
            assert 0 == rc;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
        return new RunResult(result.getAtIndex(ValueLayout.JAVA_LONG, 0), 0, result.getAtIndex(ValueLayout.JAVA_LONG, 2),
            0);
    }

    private static MemorySegment feedFunction(final RingFeeder feeder)
    {
        return null == feeder ? MemorySegment.NULL : RingFeeder.feedFunction();
    }

    private static MemorySegment feederSegment(final RingFeeder feeder)
    {
        return null == feeder ? MemorySegment.NULL : feeder.segment();
    }

    /**
     * Buffer mode: frames go to a native buffer of this capacity, as {@code [u16 LE length][bytes]} records.
     *
     * @param capacity bytes.
     */
    public void output(final int capacity)
    {
        output = arena.allocate(capacity, 8);
        frame = arena.allocate(2048, 8);
        try
        {
            h.setOutput.invokeExact(context, output, (long)capacity);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * @return a copy of what buffer mode wrote so far.
     */
    public byte[] outputBytes()
    {
        final long length;
        try
        {
            length = (long)h.outputLength.invokeExact(context);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
        return output.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * Buffer mode: one frame in.
     *
     * @param bytes    the frame.
     * @param offset   where it starts.
     * @param length   its length (at most 2048).
     * @param nowNanos engine clock.
     */
    public void onFrame(final byte[] bytes, final int offset, final int length, final long nowNanos)
    {
        MemorySegment.copy(bytes, offset, frame, ValueLayout.JAVA_BYTE, 0, length);
        try
        {
            h.onFrame.invokeExact(context, frame, length, nowNanos);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Buffer mode: the timers.
     *
     * @param nowNanos engine clock.
     */
    public void poll(final long nowNanos)
    {
        try
        {
            h.poll.invokeExact(context, nowNanos);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Tests: {@link #run} reads this engine clock instead of the real one, so that no timer fires.
     *
     * @param nowNanos the clock (not 0), or 0 for the real clock again.
     */
    public void fixedClock(final long nowNanos)
    {
        try
        {
            h.fixedClock.invokeExact(context, nowNanos);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * End of input: partial batches, cached postcards and held frames go out (in mbuf mode, sent).
     *
     * @param nowNanos engine clock.
     */
    public void flush(final long nowNanos)
    {
        try
        {
            h.flush.invokeExact(context, nowNanos);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Frees the context (held frames and unused mbufs go back to their pool: close before the pool and the EAL).
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            h.destroy.invokeExact(context);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
        arena.close();
    }

    /**
     * @return the paths where the library is looked for, in order ({@link NativeLibraryPaths}).
     */
    public static List<Path> candidates()
    {
        return NativeLibraryPaths.candidates(CReference.class, LIBRARY_PROPERTY, "DTA_CREF", LIBRARY_FILE, "translator-appliance/bench");
    }
}
