package io.dta.perf;

import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.EngineBench;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.QpPath;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.RepeatedHeaderIcrc;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * What one ATOMIC ACK costs the engine (docs/performance.md, open loop against closed loop): the whole response path
 * ({@code TranslatorEngine.onFrame}: decode, QP lookup, source and window checks, ICRC, the atomic queue, counters),
 * the decode alone and the kept-header ICRC check alone. The ATOMIC ACK answers the Key-Increment QP of a warmed
 * closed-loop {@link EngineBench}, for a PSN that QP sent (the window's lower edge, so every call is accepted and
 * changes nothing).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {
    "--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED" })
@State(Scope.Thread)
public class ResponseBenchmark
{
    private final UnsafeBuffer atomicAck = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final FrameDecoder decoder = new FrameDecoder();
    private final RepeatedHeaderIcrc icrc = new RepeatedHeaderIcrc();
    private TranslatorEngine engine;
    private int length;
    private long now;

    /**
     * Warms a closed-loop Key-Increment bench and encodes an ATOMIC ACK its collector would send.
     */
    @Setup
    public void setUp()
    {
        final EngineBench bench = new EngineBench(BenchPrimitive.KEYINCREMENT, ConfigDefaults.load(), 1, 16,
            EngineBench.DEFAULT_SKETCH_SWITCHES, false, 1);
        bench.run(100_000, 1000);
        engine = bench.engine();
        final ApplianceConfig config = bench.config();
        final QueuePairSender sender = engine.senders().stream()
            .filter(s -> s.path().name().endsWith("/keyIncrement")).findFirst().orElseThrow();
        final QpPath path = sender.path();
        final int answered = (int)engine.counters().get(EngineCounter.ATOMIC_ACKS_IN);
        length = new RoceFrameEncoder().dstMac(config.translator().mac()).srcMac(path.collectorMac())
            .dstIp(config.translator().ip()).srcIp(path.collectorIp()).srcPort(0xD001).dstPort(4791)
            .dontFragment(true).ttl(64).opcode(RoceOpcode.RC_ATOMIC_ACKNOWLEDGE).migReq(true)
            .pKey(config.translator().pKey()).destQp(path.localQpn())
            .psn((path.startPsn() + answered - 1) & 0xFF_FFFF).syndrome(0x1F).originalValue(0).noPayload()
            .encode(atomicAck, 0);
        now = System.nanoTime();
        final long before = engine.counters().get(EngineCounter.ATOMIC_ACKS_IN);
        engine.onFrame(atomicAck, 0, length, now);
        if (engine.counters().get(EngineCounter.ATOMIC_ACKS_IN) != before + 1 ||
            FrameKind.ROCE != decoder.decode(atomicAck, 0, length) || !decoder.icrcValid(icrc))
        {
            throw new IllegalStateException("the ATOMIC ACK is not accepted (out of window " +
                engine.counters().get(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW) + ", bad ICRC " +
                engine.counters().get(EngineCounter.RESPONSE_DROP_BAD_ICRC) + ")");
        }
    }

    /**
     * The whole response path.
     */
    @Benchmark
    public void engineTakesAtomicAck()
    {
        engine.onFrame(atomicAck, 0, length, now);
    }

    /**
     * @return the frame's kind.
     */
    @Benchmark
    public FrameKind decodeAtomicAck()
    {
        return decoder.decode(atomicAck, 0, length);
    }

    /**
     * @return whether the ICRC is valid.
     */
    @Benchmark
    public boolean checkIcrcWithKeptHeader()
    {
        return icrc.verify(atomicAck, EthernetFlyweight.HEADER_LENGTH, length);
    }
}
