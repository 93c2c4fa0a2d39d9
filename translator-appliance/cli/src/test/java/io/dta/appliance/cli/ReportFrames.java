package io.dta.appliance.cli;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Hand-made DTA report frames to one collector, in the order they were added: Ethernet, IPv4 (identification and
 * seqnum = position), UDP to 40040, 3-byte base header without flags, the primitive's sub-header.
 */
final class ReportFrames implements Iterable<byte[]>
{
    private final List<byte[]> frames = new ArrayList<>();
    private final int collectorIp;

    ReportFrames(final int collectorIp)
    {
        this.collectorIp = collectorIp;
    }

    int size()
    {
        return frames.size();
    }

    @Override
    public Iterator<byte[]> iterator()
    {
        return frames.iterator();
    }

    void keyWrite(final int n, final int key, final int data)
    {
        report(0x01, ByteBuffer.allocate(9).put((byte)n).putInt(key).putInt(data).array());
    }

    void keyIncrement(final int n, final int key, final long counter)
    {
        report(0x03, ByteBuffer.allocate(13).put((byte)n).putInt(key).putLong(counter).array());
    }

    void append(final int list, final int data)
    {
        report(0x02, ByteBuffer.allocate(8).putInt(list).putInt(data).array());
    }

    void postcard(final int key, final int hop, final int data)
    {
        report(0x04, ByteBuffer.allocate(9).putInt(key).put((byte)hop).putInt(data).array());
    }

    private void report(final int opcode, final byte[] subHeader)
    {
        final int udpLength = 8 + 3 + subHeader.length;
        final ByteBuffer b = ByteBuffer.allocate(14 + 20 + udpLength).order(ByteOrder.BIG_ENDIAN);
        b.put(new byte[] { 2, 0, 10, 0, 0, 0x65, 2, 0, 10, 0, 0, 1 }).putShort((short)0x0800);
        b.put((byte)0x45).put((byte)0).putShort((short)(20 + udpLength)).putShort((short)frames.size())
            .putShort((short)0x4000).put((byte)64).put((byte)17).putShort((short)0)
            .putInt(0x0A000001).putInt(collectorIp);
        int sum = 0;
        for (int i = 14; i < 34; i += 2)
        {
            sum += b.getShort(i) & 0xFFFF;
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        b.putShort(24, (short)~sum);
        b.putShort((short)5000).putShort((short)40040).putShort((short)udpLength).putShort((short)0);
        b.put((byte)opcode).put((byte)frames.size()).put((byte)0).put(subHeader);
        frames.add(b.array());
    }
}
