package io.dta.codec.pcap;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Builds pcapng file images block by block, independently of the reader's constants where it matters (lengths and
 * layouts are spelled out here), so reader tests check the reader against the draft rather than against itself.
 * Each section is written in its own byte order; options are built in the current section's order.
 */
final class PcapngFileBuilder
{
    static final int SHB = 0x0A0D0D0A;
    static final int IDB = 1;
    static final int PB = 2;
    static final int SPB = 3;
    static final int NRB = 4;
    static final int ISB = 5;
    static final int EPB = 6;
    static final int CUSTOM = 0x0000_0BAD;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private ByteOrder order;

    PcapngFileBuilder(final ByteOrder order)
    {
        this.order = order;
    }

    /** Section Header Block version 1.0, unknown section length, switching the builder to {@code order}. */
    PcapngFileBuilder section(final ByteOrder order)
    {
        return section(order, 1, new byte[0]);
    }

    PcapngFileBuilder section(final ByteOrder order, final int major, final byte[] options)
    {
        this.order = order;
        final ByteBuffer body = buffer(16 + options.length);
        body.putInt(0x1A2B3C4D).putShort((short)major).putShort((short)0).putLong(-1L).put(options);
        return block(SHB, body.array());
    }

    PcapngFileBuilder interfaceDescription(final int linkType, final int snapLength, final byte[]... options)
    {
        final byte[] all = concat(options);
        final ByteBuffer body = buffer(8 + all.length);
        body.putShort((short)linkType).putShort((short)0).putInt(snapLength).put(all);
        return block(IDB, body.array());
    }

    PcapngFileBuilder enhancedPacket(final int interfaceId, final long units, final byte[] packet)
    {
        return enhancedPacket(interfaceId, units, packet.length, packet.length, packet);
    }

    PcapngFileBuilder enhancedPacket(
        final int interfaceId, final long units, final long captured, final long original, final byte[] data)
    {
        final ByteBuffer body = buffer(20 + padded(data.length));
        body.putInt(interfaceId).putInt((int)(units >>> 32)).putInt((int)units).putInt((int)captured)
            .putInt((int)original).put(data);
        return block(EPB, body.array());
    }

    PcapngFileBuilder packetBlock(final int interfaceId, final long units, final byte[] packet)
    {
        final ByteBuffer body = buffer(20 + padded(packet.length));
        body.putShort((short)interfaceId).putShort((short)0).putInt((int)(units >>> 32)).putInt((int)units)
            .putInt(packet.length).putInt(packet.length).put(packet);
        return block(PB, body.array());
    }

    PcapngFileBuilder simplePacket(final long original, final byte[] data)
    {
        final ByteBuffer body = buffer(4 + padded(data.length));
        body.putInt((int)original).put(data);
        return block(SPB, body.array());
    }

    /** Any block: type, total length, body padded to 32 bits, total length. */
    PcapngFileBuilder block(final int type, final byte[] body)
    {
        final int total = 12 + padded(body.length);
        final ByteBuffer block = buffer(total);
        block.putInt(type).putInt(total).put(body).position(total - 4);
        block.putInt(total);
        out.writeBytes(block.array());
        return this;
    }

    PcapngFileBuilder raw(final byte[] bytes)
    {
        out.writeBytes(bytes);
        return this;
    }

    byte[] option(final int code, final byte[] value)
    {
        final ByteBuffer option = buffer(4 + padded(value.length));
        option.putShort((short)code).putShort((short)value.length).put(value);
        return option.array();
    }

    byte[] tsresol(final int value)
    {
        return option(9, new byte[] { (byte)value });
    }

    byte[] tsoffset(final long seconds)
    {
        return option(14, buffer(8).putLong(seconds).array());
    }

    byte[] endOfOptions()
    {
        return option(0, new byte[0]);
    }

    ByteOrder order()
    {
        return order;
    }

    int size()
    {
        return out.size();
    }

    byte[] toByteArray()
    {
        return out.toByteArray();
    }

    static int padded(final int length)
    {
        return (length + 3) & ~3;
    }

    private ByteBuffer buffer(final int length)
    {
        return ByteBuffer.allocate(length).order(order);
    }

    private static byte[] concat(final byte[]... parts)
    {
        final ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (final byte[] part : parts)
        {
            all.writeBytes(part);
        }
        return all.toByteArray();
    }
}
