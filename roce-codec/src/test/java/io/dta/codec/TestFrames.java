package io.dta.codec;

import org.agrona.MutableDirectBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test helpers: hex, resources, a hand-written pcap reader and a DTA report builder.
 */
final class TestFrames
{
    static final int DTA_PORT = 40040;

    private TestFrames()
    {
    }

    static byte[] hex(final String text)
    {
        final String clean = text.replaceAll("[^0-9a-fA-F]", "");
        if (clean.length() % 2 != 0)
        {
            throw new IllegalArgumentException("odd hex length");
        }
        final byte[] bytes = new byte[clean.length() / 2];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)Integer.parseInt(clean.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }

    static String toHex(final byte[] bytes)
    {
        final StringBuilder sb = new StringBuilder();
        for (final byte b : bytes)
        {
            sb.append(String.format("%02x", b & 0xFF));
        }
        return sb.toString();
    }

    static byte[] resource(final String name) throws IOException
    {
        try (InputStream in = TestFrames.class.getResourceAsStream("/vectors/" + name))
        {
            if (null == in)
            {
                throw new IOException("missing resource " + name);
            }
            return in.readAllBytes();
        }
    }

    /**
     * vectors.hex.txt: name to [frame, masked ICRC input].
     */
    static Map<String, byte[][]> hexVectors() throws IOException
    {
        final String text = new String(resource("vectors.hex.txt"), StandardCharsets.US_ASCII);
        final Map<String, byte[][]> result = new LinkedHashMap<>();
        String name = null;
        boolean masked = false;
        for (final String line : text.split("\n"))
        {
            final String trimmed = line.trim();
            if (trimmed.isEmpty())
            {
                continue;
            }
            if (trimmed.startsWith("#"))
            {
                if (trimmed.startsWith("# masked"))
                {
                    masked = true;
                }
                else
                {
                    name = trimmed.substring(2, trimmed.indexOf(' ', 2));
                    masked = false;
                    result.put(name, new byte[2][]);
                }
                continue;
            }
            result.get(name)[masked ? 1 : 0] = hex(trimmed);
        }
        return result;
    }

    /**
     * Parse a classic pcap by hand: 24-byte global header, then 16-byte record headers.
     */
    static List<byte[]> pcapFrames(final byte[] file)
    {
        final ByteBuffer bb = ByteBuffer.wrap(file);
        final int magic = bb.getInt(0);
        if (magic == 0xa1b2c3d4 || magic == 0xa1b23c4d)
        {
            bb.order(ByteOrder.BIG_ENDIAN);
        }
        else
        {
            bb.order(ByteOrder.LITTLE_ENDIAN);
            final int m = bb.getInt(0);
            if (m != 0xa1b2c3d4 && m != 0xa1b23c4d)
            {
                throw new IllegalArgumentException("not a pcap file");
            }
        }
        final List<byte[]> frames = new ArrayList<>();
        int pos = 24;
        while (pos + 16 <= file.length)
        {
            final int capLen = bb.getInt(pos + 8);
            pos += 16;
            final byte[] frame = new byte[capLen];
            System.arraycopy(file, pos, frame, 0, capLen);
            frames.add(frame);
            pos += capLen;
        }
        return frames;
    }

    /**
     * Builds DTA report frames with optional VLAN tags and IPv4 options.
     */
    static final class DtaReportBuilder
    {
        long dstMac = 0xb8cef6d212c7L;
        long srcMac = 0x020000000099L;
        int[] vlanIds = new int[0];
        int[] vlanPcps = new int[0];
        int ipOptionWords;
        int tos;
        int ttl = 64;
        int identification = 1;
        int srcIp = 0x0A0000C8;
        int dstIp = 0x0A000033;
        int srcPort = 40041;
        int dstPort = DTA_PORT;
        DtaBaseHeaderForm form = DtaBaseHeaderForm.THREE;
        int opcode = DtaOpcode.KEY_WRITE;
        int seqnum;
        int flags;
        int keyWriteDataLength = 4;
        byte[] subHeader = new byte[0];
        int ethernetPadTo;

        /** Returns the frame length. */
        int build(final MutableDirectBuffer buffer, final int offset)
        {
            final EthernetFlyweight eth = new EthernetFlyweight().wrap(buffer, offset);
            eth.dstMac(dstMac).srcMac(srcMac);
            for (int i = 0; i < vlanIds.length; i++)
            {
                eth.vlanTag(i, i == 0 && vlanIds.length == 2 ? EthernetFlyweight.TPID_8021AD :
                    EthernetFlyweight.TPID_8021Q, vlanPcps[i], false, vlanIds[i]);
            }
            final int typeOffset = offset + 12 + 4 * vlanIds.length;
            buffer.putShort(typeOffset, (short)EthernetFlyweight.ETHER_TYPE_IPV4, ByteOrder.BIG_ENDIAN);
            final int ip = typeOffset + 2;
            final int ipHeader = 20 + 4 * ipOptionWords;
            final int udp = ip + ipHeader;
            final int dta = udp + 8;
            final int base = form.length();
            buffer.putByte(dta, (byte)opcode);
            if (base == 3)
            {
                buffer.putByte(dta + 1, (byte)seqnum);
                buffer.putByte(dta + 2, (byte)flags);
            }
            else
            {
                buffer.putByte(dta + 1, (byte)flags);
            }
            buffer.putBytes(dta + base, subHeader);
            final int udpLength = 8 + base + subHeader.length;
            final Ipv4Flyweight ipv4 = new Ipv4Flyweight().wrap(buffer, ip);
            ipv4.versionAndIhl(5 + ipOptionWords).tos(tos).totalLength(ipHeader + udpLength)
                .identification(identification).flagsAndFragmentOffset(0).ttl(ttl).protocol(17)
                .src(srcIp).dst(dstIp);
            for (int i = 0; i < ipOptionWords; i++)
            {
                // NOP options: a valid, meaningless option list.
                buffer.putInt(ip + 20 + 4 * i, 0x01010101, ByteOrder.BIG_ENDIAN);
            }
            ipv4.updateChecksum();
            new UdpFlyweight().wrap(buffer, udp).srcPort(srcPort).dstPort(dstPort).length(udpLength).checksum(0);
            int length = udp + udpLength - offset;
            while (length < ethernetPadTo)
            {
                buffer.putByte(offset + length, (byte)0);
                length++;
            }
            return length;
        }
    }
}
