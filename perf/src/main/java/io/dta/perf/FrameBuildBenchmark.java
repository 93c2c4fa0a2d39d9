package io.dta.perf;

import io.dta.appliance.engine.QpPath;
import io.dta.appliance.engine.RoceFrameBuilder;
import io.dta.codec.Icrc;
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
 * The appliance's frame builder: a Key-Write frame (RDMA WRITE Only, 8-byte payload) with its ICRC patched from the
 * precomputed register, the same frame with the ICRC computed over the frame afterwards (what the builder did
 * before), a FETCH_ADD, and setting AckReq on a built frame (one XOR).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {
    "--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED" })
@State(Scope.Thread)
public class FrameBuildBenchmark
{
    private static final int OFFSET = 2;

    private final QpPath path = new QpPath("bench/keyWrite", 0x02000a000033L, 0x0a000033, 0xC539, 0x539, 0x456,
        0x1234, 0x7f0000000000L, 1 << 16, 0x100, 1024);
    private final RoceFrameBuilder builder = new RoceFrameBuilder(0x02000a000065L, 0x0a000065, 0, 64, 0xFFFF, path);
    private final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
    private final UnsafeBuffer slot = new UnsafeBuffer(ByteBuffer.allocateDirect(8));
    private final Icrc icrc = new Icrc();
    private final IntrinsicIcrc intrinsic = new IntrinsicIcrc();
    private int psn;

    /**
     * Fills the slot.
     */
    @Setup
    public void setUp()
    {
        slot.putLong(0, 0x0102030405060708L);
    }

    /**
     * @return frame length.
     */
    @Benchmark
    public int keyWriteFrame()
    {
        final int p = psn = (psn + 1) & 0xFF_FFFF;
        return builder.writeOnly(frame, OFFSET, p, false, 0x7f0000000000L + (p & 0x1FFF) * 8, slot, 0, 8);
    }

    /**
     * @return frame length, with the ICRC recomputed over the built frame by the table-driven {@link Icrc}.
     */
    @Benchmark
    public int keyWriteFrameThenIcrcOverFrame()
    {
        final int length = keyWriteFrame();
        icrc.writeInPlace(frame, OFFSET + 14, OFFSET + length - Icrc.LENGTH);
        return length;
    }

    /**
     * @return frame length, with the ICRC recomputed over the built frame by the former intrinsic-based code.
     */
    @Benchmark
    public int keyWriteFrameThenIntrinsicIcrc()
    {
        final int length = keyWriteFrame();
        intrinsic.writeInPlace(frame, OFFSET + 14, OFFSET + length - Icrc.LENGTH);
        return length;
    }

    /**
     * @return frame length.
     */
    @Benchmark
    public int fetchAddFrame()
    {
        final int p = psn = (psn + 1) & 0xFF_FFFF;
        return builder.fetchAdd(frame, OFFSET, p, false, 0x7f0000100000L + (p & 0x1FFF) * 8, p);
    }

    /**
     * @return frame length, AckReq set afterwards as when a held frame goes out idle.
     */
    @Benchmark
    public int keyWriteFrameThenAckReq()
    {
        final int length = keyWriteFrame();
        builder.requestAck(frame, OFFSET, length);
        return length;
    }
}
