package io.dta.perf.ab;

import io.dta.codec.Icrc;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.perf.IntrinsicIcrc;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * ICRC of the 82-byte Key-Write frame: table-driven {@link Icrc} against the former intrinsic-based code and a
 * bare {@link CRC32}, in alternating rounds. Run: {@code java -cp perf/target/dta-benchmarks.jar
 * io.dta.perf.ab.IcrcAb}.
 */
public final class IcrcAb
{
    private IcrcAb()
    {
    }

    /**
     * @param args ignored.
     */
    public static void main(final String[] args)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[] { 0x79, (byte)0xb8, (byte)0xf8, (byte)0x99, 0, 0, 0, 1 });
        final int length = new RoceFrameEncoder()
            .dstMac(0xb8cef6d212c7L).srcMac(0xb8cef6d21326L).tos(0).identification(0x2c75).dontFragment(true).ttl(64)
            .srcIp(0x0a000065).dstIp(0x0a000033).srcPort(10000).dstPort(4791)
            .opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).migReq(true).pKey(0xffff).destQp(0x456).psn(0x100)
            .virtualAddress(0x7f0000000568L).rKey(0x1234).dmaLength(8).payload(payload, 0, 8)
            .encode(frame, 2);
        final int ip = 16;
        final int icrcAt = 2 + length - Icrc.LENGTH;
        final Icrc icrc = new Icrc();
        final IntrinsicIcrc intrinsic = new IntrinsicIcrc();
        final CRC32 crc = new CRC32();
        final ByteBuffer view = frame.byteBuffer().duplicate();
        AbRunner.compare("ICRC of the 82-byte Key-Write frame", 200_000, 40,
            new AbRunner.Variant("Icrc.writeInPlace (tables)")
            {
                public long run(final int iterations)
                {
                    long x = 0;
                    for (int i = 0; i < iterations; i++)
                    {
                        frame.putInt(ip + 4, i);
                        icrc.writeInPlace(frame, ip, icrcAt);
                        x += frame.getInt(icrcAt);
                    }
                    return x;
                }
            },
            new AbRunner.Variant("IntrinsicIcrc.writeInPlace (before)")
            {
                public long run(final int iterations)
                {
                    long x = 0;
                    for (int i = 0; i < iterations; i++)
                    {
                        frame.putInt(ip + 4, i);
                        intrinsic.writeInPlace(frame, ip, icrcAt);
                        x += frame.getInt(icrcAt);
                    }
                    return x;
                }
            },
            new AbRunner.Variant("IntrinsicIcrc.write (before)")
            {
                public long run(final int iterations)
                {
                    long x = 0;
                    for (int i = 0; i < iterations; i++)
                    {
                        frame.putInt(ip + 4, i);
                        intrinsic.write(frame, ip, icrcAt);
                        x += frame.getInt(icrcAt);
                    }
                    return x;
                }
            },
            new AbRunner.Variant("bare CRC32 over 72 bytes")
            {
                public long run(final int iterations)
                {
                    long x = 0;
                    for (int i = 0; i < iterations; i++)
                    {
                        frame.putInt(ip + 4, i);
                        crc.reset();
                        view.clear().limit(ip - 8 + 72).position(ip - 8);
                        crc.update(view);
                        x += crc.getValue();
                    }
                    return x;
                }
            });
    }
}
