package io.dta.perf;

import io.dta.codec.Icrc;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
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
 * ICRC of the 82-byte Key-Write frame (RDMA WRITE Only, 8-byte payload): compute into the frame, and verify; the
 * table-driven {@link Icrc} side by side with the former intrinsic-based one ({@link IntrinsicIcrc}) and a bare
 * {@link java.util.zip.CRC32} over the same 72 bytes.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {
    "--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED" })
@State(Scope.Thread)
public class IcrcBenchmark
{
    /**
     * The frame starts 2 bytes into its buffer, as the appliance lays out frames it builds (like Linux's
     * NET_IP_ALIGN), so the IPv4 header and the CRC's first byte are 8-byte aligned.
     */
    private static final int FRAME_OFFSET = 2;
    private static final int IP_OFFSET = FRAME_OFFSET + 14;

    private final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
    private final Icrc icrc = new Icrc();
    private final IntrinsicIcrc intrinsic = new IntrinsicIcrc();
    private final java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    private final ByteBuffer view = frame.byteBuffer().duplicate();
    private int length;

    /**
     * Builds the reference's Key-Write frame (dta-reference.md §3.5).
     */
    @Setup
    public void setUp()
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[] { 0x79, (byte)0xb8, (byte)0xf8, (byte)0x99, 0, 0, 0, 1 });
        length = new RoceFrameEncoder()
            .dstMac(0xb8cef6d212c7L).srcMac(0xb8cef6d21326L).tos(0).identification(0x2c75).dontFragment(true).ttl(64)
            .srcIp(0x0a000065).dstIp(0x0a000033).srcPort(10000).dstPort(4791)
            .opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).migReq(true).pKey(0xffff).destQp(0x456).psn(0x100)
            .virtualAddress(0x7f0000000568L).rKey(0x1234).dmaLength(8).payload(payload, 0, 8)
            .encode(frame, FRAME_OFFSET);
        if (82 != length)
        {
            throw new IllegalStateException("expected an 82-byte frame, got " + length);
        }
    }

    /**
     * @return the ICRC written into the frame (how the appliance writes its own frames).
     */
    @Benchmark
    public int writeInPlace()
    {
        icrc.writeInPlace(frame, IP_OFFSET, FRAME_OFFSET + length - Icrc.LENGTH);
        return frame.getInt(FRAME_OFFSET + length - Icrc.LENGTH);
    }

    /**
     * @return whether the frame's ICRC is valid.
     */
    @Benchmark
    public boolean verify()
    {
        return icrc.verify(frame, IP_OFFSET, FRAME_OFFSET + length);
    }

    /**
     * @return the ICRC written into the frame by the former intrinsic-based code, masking in place.
     */
    @Benchmark
    public int intrinsicWriteInPlace()
    {
        intrinsic.writeInPlace(frame, IP_OFFSET, FRAME_OFFSET + length - Icrc.LENGTH);
        return frame.getInt(FRAME_OFFSET + length - Icrc.LENGTH);
    }

    /**
     * @return the ICRC written into the frame by the former intrinsic-based code, masking a copy of the headers.
     */
    @Benchmark
    public int intrinsicComputeAndWrite()
    {
        intrinsic.write(frame, IP_OFFSET, FRAME_OFFSET + length - Icrc.LENGTH);
        return frame.getInt(FRAME_OFFSET + length - Icrc.LENGTH);
    }

    /**
     * @return the bare CRC-32 of the 72 bytes the ICRC covers through the JDK intrinsic, as a floor for it.
     */
    @Benchmark
    public long bareCrc32()
    {
        crc.reset();
        view.clear().limit(IP_OFFSET - 8 + 72).position(IP_OFFSET - 8);
        crc.update(view);
        return crc.getValue();
    }
}
