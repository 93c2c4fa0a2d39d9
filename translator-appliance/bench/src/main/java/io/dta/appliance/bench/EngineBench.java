package io.dta.appliance.bench;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.QpPath;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.BthFlyweight;
import io.dta.codec.Crc32Register;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.Icrc;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.codec.UdpFlyweight;
import io.dta.config.AppendConfig;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.SketchConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine alone on one thread: pre-built frames in memory ({@link BenchInput}: synthetic reports of one primitive,
 * or the frames of a capture, {@code dta bench --in}), fed round and round, frames out to a sink that discards them.
 * Closed
 * loop ({@code dta bench --closed-loop}, and the constructors without {@code openLoop}, which older builds compared
 * by {@code EngineAb} also have), the collector is modelled as its soft responder behaves: a WRITE carrying AckReq
 * is answered with an ACK for its PSN (AckReq is set every {@code acks.requestInterval} packets and when a QP goes
 * idle), every FETCH_ADD with an ATOMIC ACK. The answers reach the engine after every {@link #ACK_EVERY} reports (a
 * round trip of a few reports), so credits, AckReq timers and the response path (decode, ICRC check, PSN window) run
 * as in production. The answers themselves cost the bench next to nothing: each QP's two response frames are encoded
 * once and only their PSN and ICRC are patched, the ICRC through three table lookups (CRC linearity).
 * <p>
 * Open loop ({@code dta bench}'s default: frames out to a discarding sink) nobody answers: the engine runs as
 * {@code dta replay} without responses and {@code dta bench --io dpdk} run it, without ACK timeouts and atomic
 * credits, and pays for no response. That is the cost of translating alone; the closed loop
 * ({@code dta bench --closed-loop}) adds what a collector's answers cost, which a live translator pays: for
 * Key-Increment one ATOMIC ACK decoded and checked per report, as much again as the report.
 * <p>
 * The measured phase follows a warm-up; allocation is the measuring thread's own allocation counter.
 */
public final class EngineBench
{
    /**
     * Reports per burst, as a NIC receive burst would deliver them.
     */
    public static final int BURST = 32;

    /**
     * Reports between two deliveries of the collector's answers: a quarter of a burst, so that the FETCH_ADDs in
     * flight stay well below the default limit of sixteen outstanding atomics.
     */
    public static final int ACK_EVERY = 8;

    /**
     * Switches contributing to the benchmarked sketch unless told otherwise.
     */
    public static final int DEFAULT_SKETCH_SWITCHES = 8;

    private static final int WARMUP_CALLS = 10;
    private static final int BTH_END = EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.MIN_HEADER_LENGTH +
        UdpFlyweight.HEADER_LENGTH + BthFlyweight.LENGTH;
    private static final EngineCounter[] COUNTERS = EngineCounter.values();

    private final BenchPrimitive primitive;
    private final ApplianceConfig config;
    private final RespondingSink sink;
    private final boolean openLoop;
    private final TranslatorEngine engine;
    private final BenchInput input;
    private final QueuePairSender[] senders;
    private final int[] remoteQpns;
    private final Response[] acks;
    private final Response[] atomicAcks;

    /**
     * The result of a measured run.
     *
     * @param primitive               what was driven (null for a capture).
     * @param reports                 DTA reports among the frames fed in the measured phase (the engine's
     *                                {@link EngineCounter#REPORTS_IN}): every frame fed for synthetic reports.
     * @param frames                  RoCEv2 frames produced in the measured phase.
     * @param seconds                 measured wall time.
     * @param reportsPerSecond        reports per second.
     * @param framesPerSecond         frames per second.
     * @param allocatedBytesPerReport bytes the thread allocated per report in the measured phase (per frame fed
     *                                when no frame fed was a report).
     * @param gcCount                 garbage collections during the measured phase.
     * @param cpuSeconds              CPU time of the measuring thread in the measured phase: on a shared machine
     *                                the time the engine really ran, whatever else was scheduled.
     * @param reportsPerCpuSecond     reports per second of the thread's CPU time.
     * @param framesIn                frames of the input fed in the measured phase (reports or not; the
     *                                collector's answers of a closed loop not included).
     * @param counters                how much each engine counter grew in the measured phase, indexed by
     *                                {@link EngineCounter#ordinal()}.
     */
    public record Result(
        BenchPrimitive primitive,
        long reports,
        long frames,
        double seconds,
        double reportsPerSecond,
        double framesPerSecond,
        double allocatedBytesPerReport,
        long gcCount,
        double cpuSeconds,
        double reportsPerCpuSecond,
        long framesIn,
        long[] counters) implements MeasuredPhase
    {
    }

    /**
     * A closed-loop bench (the collector answers).
     *
     * @param primitive  what to drive.
     * @param base       configuration; its first collector with the primitive's region serves the reports.
     * @param redundancy N for Key-Write and Key-Increment.
     * @param batchSize  Append batch size (overrides the configuration).
     * @param seed       seed of the report contents.
     */
    public EngineBench(
        final BenchPrimitive primitive,
        final ApplianceConfig base,
        final int redundancy,
        final int batchSize,
        final long seed)
    {
        this(primitive, base, redundancy, batchSize, DEFAULT_SKETCH_SWITCHES, seed);
    }

    /**
     * A closed-loop bench (the collector answers).
     *
     * @param primitive      what to drive.
     * @param base           configuration; its first collector with the primitive's region serves the reports.
     * @param redundancy     N for Key-Write and Key-Increment.
     * @param batchSize      Append batch size (overrides the configuration).
     * @param sketchSwitches switches of the benchmarked sketch (overrides those of the first sketch of the
     *                       first collector with a sketch).
     * @param seed           seed of the report contents.
     */
    public EngineBench(
        final BenchPrimitive primitive,
        final ApplianceConfig base,
        final int redundancy,
        final int batchSize,
        final int sketchSwitches,
        final long seed)
    {
        this(primitive, base, redundancy, batchSize, sketchSwitches, false, seed);
    }

    /**
     * @param primitive      what to drive.
     * @param base           configuration; its first collector with the primitive's region serves the reports.
     * @param redundancy     N for Key-Write and Key-Increment.
     * @param batchSize      Append batch size (overrides the configuration).
     * @param sketchSwitches switches of the benchmarked sketch (overrides those of the first sketch of the
     *                       first collector with a sketch).
     * @param openLoop       true: nobody answers, the engine runs open loop as in a replay; false: the collector's
     *                       answers are modelled and reach the engine.
     * @param seed           seed of the report contents.
     */
    public EngineBench(
        final BenchPrimitive primitive,
        final ApplianceConfig base,
        final int redundancy,
        final int batchSize,
        final int sketchSwitches,
        final boolean openLoop,
        final long seed)
    {
        this(config(primitive, base, batchSize, sketchSwitches), primitive, redundancy, openLoop, seed);
    }

    private EngineBench(
        final ApplianceConfig config,
        final BenchPrimitive primitive,
        final int redundancy,
        final boolean openLoop,
        final long seed)
    {
        this(BenchInput.synthetic(primitive, config, redundancy, seed), config, openLoop);
    }

    /**
     * A bench of any input: synthetic reports ({@link BenchInput#synthetic}) or a capture's frames
     * ({@link BenchInput#capture}), fed round and round.
     *
     * @param input    the frames to feed.
     * @param config   the configuration the engine runs with, as it is.
     * @param openLoop true: nobody answers, the engine runs open loop as in a replay; false: the collector's answers
     *                 are modelled and reach the engine.
     */
    public EngineBench(final BenchInput input, final ApplianceConfig config, final boolean openLoop)
    {
        this.primitive = input.primitive();
        this.input = input;
        this.openLoop = openLoop;
        this.sink = new RespondingSink(!openLoop);
        this.config = config;
        this.engine = new TranslatorEngine(config, sink, !openLoop);
        this.senders = engine.senders().toArray(new QueuePairSender[0]);
        this.remoteQpns = new int[senders.length];
        this.acks = new Response[senders.length];
        this.atomicAcks = new Response[senders.length];
        final RoceFrameEncoder encoder = new RoceFrameEncoder().dstMac(config.translator().mac())
            .dstIp(config.translator().ip()).srcPort(0xD001).dstPort(4791).dontFragment(true).ttl(64).migReq(true)
            .pKey(config.translator().pKey()).syndrome(0x1F).psn(0).noPayload();
        for (int i = 0; i < senders.length; i++)
        {
            final QpPath path = senders[i].path();
            remoteQpns[i] = path.remoteQpn();
            encoder.srcMac(path.collectorMac()).srcIp(path.collectorIp()).destQp(path.localQpn());
            acks[i] = new Response(encoder.opcode(RoceOpcode.RC_ACKNOWLEDGE));
            atomicAcks[i] = new Response(encoder.opcode(RoceOpcode.RC_ATOMIC_ACKNOWLEDGE).originalValue(0));
        }
    }

    /**
     * The configuration a synthetic bench runs with: the base one with the bench's Append batch size, and for
     * Sketch-Merge its first sketch's switches.
     *
     * @param primitive      what to drive.
     * @param base           configuration; its first collector with the primitive's region serves the reports.
     * @param batchSize      Append batch size (overrides the configuration).
     * @param sketchSwitches switches of the benchmarked sketch (overrides those of the first sketch of the
     *                       first collector with a sketch).
     * @return the configuration.
     */
    public static ApplianceConfig config(
        final BenchPrimitive primitive, final ApplianceConfig base, final int batchSize, final int sketchSwitches)
    {
        return withBatchSize(base, batchSize, BenchPrimitive.SKETCH == primitive ?
            withSketchSwitches(base.collectors(), sketchSwitches) : base.collectors());
    }

    /**
     * @param base      a configuration.
     * @param batchSize Append batch size.
     * @return the configuration with that Append batch size.
     */
    public static ApplianceConfig withBatchSize(final ApplianceConfig base, final int batchSize)
    {
        return withBatchSize(base, batchSize, base.collectors());
    }

    private static ApplianceConfig withBatchSize(
        final ApplianceConfig base, final int batchSize, final List<CollectorConfig> collectors)
    {
        return new ApplianceConfig(base.translator(), base.reports(), base.redundancy(),
            new AppendConfig(batchSize, base.append().idleFlushMicros()), base.postcards(), base.acks(),
            base.resync(), base.essential(), collectors);
    }

    /**
     * Feeds {@code count} frames of the input (for synthetic reports, {@code count} reports) through the engine, in
     * bursts of {@link #BURST} (the last one partial).
     *
     * @param count frames to feed.
     */
    public void feed(final long count)
    {
        final BenchInput input = this.input;
        final long bursts = (count + BURST - 1) / BURST;
        for (long b = 0; b < bursts; b++)
        {
            final long now = System.nanoTime();
            engine.poll(now);
            final int inBurst = (int)Math.min(BURST, count - b * BURST);
            for (int i = 0; i < inBurst; i++)
            {
                input.feedNext(engine, now);
                if (!openLoop && ACK_EVERY - 1 == (i & (ACK_EVERY - 1)))
                {
                    acknowledge(now);
                }
            }
        }
    }

    private void acknowledge(final long now)
    {
        final RespondingSink sink = this.sink;
        while (sink.pending() > 0)
        {
            final int remoteQpn = sink.remoteQpn();
            int i = 0;
            while (i < remoteQpns.length && remoteQpns[i] != remoteQpn)
            {
                i++;
            }
            if (i < remoteQpns.length)
            {
                final Response response = sink.atomic() ? atomicAcks[i] : acks[i];
                engine.onFrame(response.frame, 0, response.psn(sink.psn()), now);
            }
            sink.next();
        }
    }

    /**
     * One QP's ACK or ATOMIC ACK, encoded once with PSN 0; a response for PSN p is the same frame with p in the BTH
     * and the ICRC of PSN 0 XOR the three PSN bytes' table entries.
     */
    private static final class Response
    {
        private final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
        private final int length;
        private final int icrc0;
        private final int[] psnHigh;
        private final int[] psnMiddle;
        private final int[] psnLow;

        Response(final RoceFrameEncoder encoder)
        {
            length = encoder.encode(frame, 0);
            icrc0 = frame.getInt(length - Icrc.LENGTH, ByteOrder.LITTLE_ENDIAN);
            // Distance from each PSN byte to the ICRC: the PSN is the BTH's last three bytes.
            final int afterBth = length - Icrc.LENGTH - BTH_END;
            psnHigh = Crc32Register.distanceTable(afterBth + 2);
            psnMiddle = Crc32Register.distanceTable(afterBth + 1);
            psnLow = Crc32Register.distanceTable(afterBth);
        }

        int psn(final int psn)
        {
            frame.putInt(BTH_END - 4, psn, ByteOrder.BIG_ENDIAN);
            frame.putInt(length - Icrc.LENGTH,
                icrc0 ^ psnHigh[psn >>> 16] ^ psnMiddle[(psn >>> 8) & 0xFF] ^ psnLow[psn & 0xFF],
                ByteOrder.LITTLE_ENDIAN);
            return length;
        }
    }

    /**
     * Warms up, then measures.
     *
     * @param warmupReports   frames of the input (for synthetic reports, reports) fed before measuring.
     * @param measuredReports frames of the input (for synthetic reports, reports) fed while measuring.
     * @return the measurement.
     */
    public Result run(final long warmupReports, final long measuredReports)
    {
        // Warm-up in several calls, so that the measured call enters code compiled with its loop's exit already
        // taken: after one long warm-up call the first exit deoptimized feed (JFR: unstable_if) and the measured
        // call started interpreted; 3 of 11 Append runs then counted 128 bytes allocated in the measured phase
        // (6.4e-6 per report), none of 10 since.
        for (int round = 0; round < WARMUP_CALLS; round++)
        {
            feed(warmupReports / WARMUP_CALLS + (round < warmupReports % WARMUP_CALLS ? 1 : 0));
        }
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long thread = Thread.currentThread().threadId();
        final long gcBefore = gcCount();
        final long[] counters = new long[COUNTERS.length];
        for (final EngineCounter c : COUNTERS)
        {
            counters[c.ordinal()] = -engine.counters().get(c);
        }
        // The CPU clock and the allocation counter are read once outside the allocation window: a first call may
        // allocate (class loading, lazy initialisation).
        threads.getThreadAllocatedBytes(thread);
        final long cpuStart = threads.getCurrentThreadCpuTime();
        final long allocatedBefore = threads.getThreadAllocatedBytes(thread);
        final long start = System.nanoTime();
        feed(measuredReports);
        final long elapsed = System.nanoTime() - start;
        final long allocated = threads.getThreadAllocatedBytes(thread) - allocatedBefore;
        final double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9;
        for (final EngineCounter c : COUNTERS)
        {
            counters[c.ordinal()] += engine.counters().get(c);
        }
        // The RoCEv2 frames, not everything the sink took: reporter and sketch NACKs go out through it too.
        final long frames = counters[EngineCounter.ROCE_FRAMES_OUT.ordinal()];
        final long reports = counters[EngineCounter.REPORTS_IN.ordinal()];
        final double seconds = elapsed / 1e9;
        return new Result(primitive, reports, frames, seconds, reports / seconds, frames / seconds,
            (double)allocated / (reports > 0 ? reports : measuredReports), gcCount() - gcBefore, cpuSeconds,
            reports / cpuSeconds, measuredReports, counters);
    }

    /**
     * Writes the first {@code count} distinct report frames to a capture, as the traffic source of a benchmark
     * through a device (a {@code net_pcap} port replaying it forever).
     *
     * @param writer where to write them.
     * @param count  how many (at most 16384).
     * @throws java.io.IOException if the capture cannot be written.
     */
    public void writeReports(final io.dta.codec.pcap.PcapWriter writer, final int count) throws java.io.IOException
    {
        input.write(writer, Math.min(count, input.count()));
    }

    /**
     * @return how many distinct report frames the benchmark cycles through (and {@link #copyReport} can copy).
     */
    public int distinctReports()
    {
        return input.count();
    }

    /**
     * Copies one of the distinct report frames, as the traffic source of a benchmark through a device that is
     * filled once (the ring input of {@code dta bench --io dpdk}); the same frames, in the same order, as
     * {@link #writeReports} writes.
     *
     * @param index  which report, {@code 0..distinctReports())}.
     * @param buffer where to copy it.
     * @param offset at which offset.
     * @return its length.
     */
    public int copyReport(final int index, final org.agrona.MutableDirectBuffer buffer, final int offset)
    {
        return input.copy(index, buffer, offset);
    }

    /**
     * @return the frames the bench feeds.
     */
    public BenchInput input()
    {
        return input;
    }

    /**
     * @return the configuration with the benchmark's batch size applied.
     */
    public ApplianceConfig config()
    {
        return config;
    }

    /**
     * @return whether the engine runs open loop (nobody answers).
     */
    public boolean openLoop()
    {
        return openLoop;
    }

    /**
     * @return the engine under test.
     */
    public TranslatorEngine engine()
    {
        return engine;
    }

    private static List<CollectorConfig> withSketchSwitches(final List<CollectorConfig> collectors, final int switches)
    {
        final List<CollectorConfig> out = new ArrayList<>(collectors);
        // The collector the sketch columns go to: the first with a sketch (BenchPrimitive.collectorIn).
        int index = 0;
        while (index < out.size() && out.get(index).sketches().isEmpty())
        {
            index++;
        }
        if (index == out.size())
        {
            return out;
        }
        final CollectorConfig c = out.get(index);
        final List<SketchConfig> sketches = new ArrayList<>(c.sketches());
        final SketchConfig s = sketches.get(0);
        sketches.set(0, new SketchConfig(s.id(), s.type(), s.rows(), s.columns(), switches, s.batchColumns(),
            s.epochs(), s.epochTimeoutMicros(), s.nackRetryMicros(), s.nackRetries(), s.region()));
        out.set(index, new CollectorConfig(c.name(), c.mac(), c.ip(), c.pathMtu(), c.keyWrite(), c.keyIncrement(),
            c.postcards(), c.lists(), sketches));
        return out;
    }

    private static long gcCount()
    {
        long count = 0;
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
        {
            count += Math.max(0, gc.getCollectionCount());
        }
        return count;
    }
}
