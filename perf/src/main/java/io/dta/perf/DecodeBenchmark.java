package io.dta.perf;

import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
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
import org.openjdk.jmh.infra.Blackhole;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

/**
 * Full decode of a DTA Key-Write report (Ethernet, IPv4, UDP, base header, sub-header, every field read) and of
 * a RoCEv2 WRITE frame including the ICRC verification; the Key-Write report untagged and behind a VLAN tag. Run with {@code -prof gc} to see the allocation rate.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {
    "--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED" })
@State(Scope.Thread)
public class DecodeBenchmark
{
    /**
     * The reference generator's Key-Write report (dta-reference.md §7.2), 54 bytes.
     */
    private static final String KEY_WRITE_REPORT =
        "b8cef6d212c7000000000000080045000028000100004011" + "65ca0a0000c80a0000339c699c680014b0f3010000040000000100000001";

    /**
     * The same report behind one 802.1Q tag.
     */
    private static final String TAGGED_KEY_WRITE_REPORT =
        "b8cef6d212c700000000000081000064080045000028000100004011" +
        "65ca0a0000c80a0000339c699c680014b0f3010000040000000100000001";

    private final UnsafeBuffer report = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final UnsafeBuffer tagged = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private int taggedLength;
    private final UnsafeBuffer roce = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final FrameDecoder decoder = new FrameDecoder().baseHeaderForm(DtaBaseHeaderForm.THREE);
    private int reportLength;
    private int roceLength;

    /**
     * Prepares both frames.
     */
    @Setup
    public void setUp()
    {
        final byte[] bytes = HexFormat.of().parseHex(KEY_WRITE_REPORT);
        report.putBytes(0, bytes);
        reportLength = bytes.length;
        final byte[] taggedBytes = HexFormat.of().parseHex(TAGGED_KEY_WRITE_REPORT);
        tagged.putBytes(0, taggedBytes);
        taggedLength = taggedBytes.length;
        if (FrameKind.DTA != decoder.decode(tagged, 0, taggedLength))
        {
            throw new IllegalStateException("tagged report does not decode as DTA: " + decoder.malformedReason());
        }
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[8]);
        roceLength = new RoceFrameEncoder()
            .dstMac(0xb8cef6d212c7L).srcMac(0xb8cef6d21326L).dontFragment(true).ttl(64)
            .srcIp(0x0a000065).dstIp(0x0a000033).srcPort(10000).dstPort(4791)
            .opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).migReq(true).pKey(0xffff).destQp(0x456).psn(0x100)
            .virtualAddress(0x7f0000000568L).rKey(0x1234).dmaLength(8).payload(payload, 0, 8)
            .encode(roce, 0);
        if (FrameKind.DTA != decoder.decode(report, 0, reportLength))
        {
            throw new IllegalStateException("report does not decode as DTA: " + decoder.malformedReason());
        }
    }

    /**
     * @param bh sink for every field.
     */
    @Benchmark
    public void decodeKeyWriteReport(final Blackhole bh)
    {
        bh.consume(decoder.decode(report, 0, reportLength));
        bh.consume(decoder.ipv4().src());
        bh.consume(decoder.ipv4().dst());
        bh.consume(decoder.dtaBase().flags());
        bh.consume(decoder.keyWrite().redundancy());
        bh.consume(decoder.keyWrite().key());
        bh.consume(decoder.keyWrite().data());
    }

    /**
     * @param bh sink for every field.
     */
    @Benchmark
    public void decodeTaggedKeyWriteReport(final Blackhole bh)
    {
        bh.consume(decoder.decode(tagged, 0, taggedLength));
        bh.consume(decoder.ipv4().src());
        bh.consume(decoder.ipv4().dst());
        bh.consume(decoder.dtaBase().flags());
        bh.consume(decoder.keyWrite().redundancy());
        bh.consume(decoder.keyWrite().key());
        bh.consume(decoder.keyWrite().data());
    }

    /**
     * @return whether the ICRC is valid.
     */
    @Benchmark
    public boolean decodeRoceWriteWithIcrc()
    {
        decoder.decode(roce, 0, roceLength);
        return decoder.icrcValid();
    }
}
